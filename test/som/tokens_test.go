package som_test

import (
	"slices"
	"testing"

	"github.com/plasmate/plasmate/adapters/tokencount"
)

// minMedianReduction guards token cost against regressions: the median
// exact cl100k_base reduction (HTML tokens / SOM tokens) over the corpus
// was 2.44x when this test was written. A markdown converter reaches 3.7x
// on the same pages but keeps no element ids and drops every form
// control; every link of the SOM carries an id, a role, its actions and
// its href, and links are two thirds of the SOM's bytes.
const minMedianReduction = 2.3

// TestTokenReduction measures exact cl100k_base tokens of each corpus
// page's HTML and SOM. Run with -v for the per-page figures.
func TestTokenReduction(t *testing.T) {
	if testing.Short() {
		t.Skip("token counting of the whole corpus")
	}
	counter, err := tokencount.New(tokencount.CL100K)
	if err != nil {
		t.Fatal(err)
	}
	var ratios []float64
	for _, p := range corpus(t) {
		s, _ := compileRaw(t, p.raw, corpusURL(p.name))
		js := checkValid(t, s)
		h, m := counter.Count(string(p.raw)), counter.Count(string(js))
		r := float64(h) / float64(m)
		ratios = append(ratios, r)
		t.Logf("%-36s html %8d tokens  som %7d tokens  %6.1fx", p.name, h, m, r)
	}
	slices.Sort(ratios)
	median := ratios[len(ratios)/2]
	if len(ratios)%2 == 0 {
		median = (ratios[len(ratios)/2-1] + ratios[len(ratios)/2]) / 2
	}
	t.Logf("median cl100k token reduction over %d pages: %.2fx", len(ratios), median)
	if median < minMedianReduction {
		t.Errorf("median token reduction %.2fx fell below %.2fx", median, minMedianReduction)
	}
}
