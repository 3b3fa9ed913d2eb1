package bench

import (
	"math"
	"slices"
)

// Stat is the mean, median and 95th percentile of a metric.
type Stat struct {
	Mean   float64 `json:"mean"`
	Median float64 `json:"median"`
	P95    float64 `json:"p95"`
}

// Describe computes a Stat. The median is the middle value (the mean of
// the two middle values for an even count); P95 is the nearest-rank
// percentile: the smallest value with at least 95% of the values at or
// below it. An empty input gives zeros.
func Describe(values []float64) Stat {
	if len(values) == 0 {
		return Stat{}
	}
	v := slices.Clone(values)
	slices.Sort(v)
	sum := 0.0
	for _, x := range v {
		sum += x
	}
	n := len(v)
	median := v[n/2]
	if n%2 == 0 {
		median = (v[n/2-1] + v[n/2]) / 2
	}
	rank := int(math.Ceil(0.95 * float64(n)))
	return Stat{Mean: sum / float64(n), Median: median, P95: v[rank-1]}
}
