package bench

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
)

// Report is a finished run.
type Report struct {
	Date        time.Time `json:"date"`
	Engine      string    `json:"engine"`
	Version     string    `json:"version"`
	Concurrency int       `json:"concurrency"`
	WallTime    float64   `json:"wall_time_s"`
	Results     []Result  `json:"results"`
	Summary     Summary   `json:"summary"`
}

// Summary holds the statistics over the successful rows.
type Summary struct {
	URLsTested int `json:"urls_tested"`
	Successful int `json:"successful"`
	Empty      int `json:"empty"`
	Failed     int `json:"failed"`

	HTMLBytes        Stat `json:"html_bytes"`
	SOMBytes         Stat `json:"som_bytes"`
	ByteRatio        Stat `json:"byte_ratio"`
	HTMLTokensEst    Stat `json:"html_tokens_est"`
	SOMTokensEst     Stat `json:"som_tokens_est"`
	TokenRatioEst    Stat `json:"token_ratio_est"`
	HTMLTokensCL100K Stat `json:"html_tokens_cl100k"`
	SOMTokensCL100K  Stat `json:"som_tokens_cl100k"`
	TokenRatioCL100K Stat `json:"token_ratio_cl100k"`
	HTMLTokensO200K  Stat `json:"html_tokens_o200k"`
	SOMTokensO200K   Stat `json:"som_tokens_o200k"`
	TokenRatioO200K  Stat `json:"token_ratio_o200k"`
	Elements         Stat `json:"elements"`
	Interactive      Stat `json:"interactive"`
	FetchMS          Stat `json:"fetch_ms"`
	ParseSOMMS       Stat `json:"parse_som_ms"`

	// The bytes/4 estimate against cl100k_base: mean signed and mean
	// absolute relative error, in percent.
	EstErrorHTML    float64 `json:"est_error_html_pct"`
	EstAbsErrorHTML float64 `json:"est_abs_error_html_pct"`
	EstErrorSOM     float64 `json:"est_error_som_pct"`
	EstAbsErrorSOM  float64 `json:"est_abs_error_som_pct"`
}

// Summarize computes the statistics. Ratios were computed per URL; they
// are averaged here, not recomputed from averaged sizes.
func Summarize(results []Result) Summary {
	s := Summary{URLsTested: len(results)}
	col := func(f func(*Result) float64) Stat {
		var v []float64
		for i := range results {
			if results[i].OK() {
				v = append(v, f(&results[i]))
			}
		}
		return Describe(v)
	}
	var errH, absH, errS, absS []float64
	for i := range results {
		r := &results[i]
		switch {
		case r.OK():
			s.Successful++
			if r.HTMLTokensCL100K > 0 && r.SOMTokensCL100K > 0 {
				eh := 100 * float64(r.HTMLTokensEst-r.HTMLTokensCL100K) / float64(r.HTMLTokensCL100K)
				es := 100 * float64(r.SOMTokensEst-r.SOMTokensCL100K) / float64(r.SOMTokensCL100K)
				errH, absH = append(errH, eh), append(absH, math.Abs(eh))
				errS, absS = append(errS, es), append(absS, math.Abs(es))
			}
		case r.Status == StatusEmpty:
			s.Empty++
		default:
			s.Failed++
		}
	}
	s.HTMLBytes = col(func(r *Result) float64 { return float64(r.HTMLBytes) })
	s.SOMBytes = col(func(r *Result) float64 { return float64(r.SOMBytes) })
	s.ByteRatio = col(func(r *Result) float64 { return r.ByteRatio })
	s.HTMLTokensEst = col(func(r *Result) float64 { return float64(r.HTMLTokensEst) })
	s.SOMTokensEst = col(func(r *Result) float64 { return float64(r.SOMTokensEst) })
	s.TokenRatioEst = col(func(r *Result) float64 { return r.TokenRatioEst })
	s.HTMLTokensCL100K = col(func(r *Result) float64 { return float64(r.HTMLTokensCL100K) })
	s.SOMTokensCL100K = col(func(r *Result) float64 { return float64(r.SOMTokensCL100K) })
	s.TokenRatioCL100K = col(func(r *Result) float64 { return r.TokenRatioCL100K })
	s.HTMLTokensO200K = col(func(r *Result) float64 { return float64(r.HTMLTokensO200K) })
	s.SOMTokensO200K = col(func(r *Result) float64 { return float64(r.SOMTokensO200K) })
	s.TokenRatioO200K = col(func(r *Result) float64 { return r.TokenRatioO200K })
	s.Elements = col(func(r *Result) float64 { return float64(r.Elements) })
	s.Interactive = col(func(r *Result) float64 { return float64(r.Interactive) })
	s.FetchMS = col(func(r *Result) float64 { return r.FetchMS })
	s.ParseSOMMS = col(func(r *Result) float64 { return r.ParseSOMMS })
	s.EstErrorHTML, s.EstAbsErrorHTML = Describe(errH).Mean, Describe(absH).Mean
	s.EstErrorSOM, s.EstAbsErrorSOM = Describe(errS).Mean, Describe(absS).Mean
	return s
}

// WriteMarkdown renders the report in the spec's shape (§9), with the
// exact token counts and the method beside it.
func WriteMarkdown(w io.Writer, r *Report) error {
	s := r.Summary
	var b strings.Builder
	fmt.Fprintf(&b, "# Plasmate SOM Benchmark Report\n\n")
	fmt.Fprintf(&b, "Date: %s\n", r.Date.UTC().Format("2006-01-02"))
	fmt.Fprintf(&b, "Engine: %s v%s\n", r.Engine, r.Version)
	fmt.Fprintf(&b, "URLs tested: %d\n", s.URLsTested)
	fmt.Fprintf(&b, "Successful: %d (%s)\n", s.Successful, percent(s.Successful, s.URLsTested))
	if s.Empty > 0 {
		fmt.Fprintf(&b, "Empty pages: %d\n", s.Empty)
	}
	fmt.Fprintf(&b, "Failed: %d\n", s.Failed)
	fmt.Fprintf(&b, "Wall time: %.1f s (concurrency %d)\n", r.WallTime, r.Concurrency)

	fmt.Fprintf(&b, "\n## Summary\n\n")
	fmt.Fprintf(&b, "| Metric | Mean | Median | P95 |\n|---|---|---|---|\n")
	row := func(name string, st Stat, f func(float64) string) {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", name, f(st.Mean), f(st.Median), f(st.P95))
	}
	row("HTML bytes", s.HTMLBytes, count)
	row("SOM bytes", s.SOMBytes, count)
	row("Byte ratio", s.ByteRatio, times)
	row("HTML tokens (est)", s.HTMLTokensEst, count)
	row("SOM tokens (est)", s.SOMTokensEst, count)
	row("Token ratio (est)", s.TokenRatioEst, times)
	row("HTML tokens (cl100k_base)", s.HTMLTokensCL100K, count)
	row("SOM tokens (cl100k_base)", s.SOMTokensCL100K, count)
	row("Token ratio (cl100k_base)", s.TokenRatioCL100K, times)
	row("HTML tokens (o200k_base)", s.HTMLTokensO200K, count)
	row("SOM tokens (o200k_base)", s.SOMTokensO200K, count)
	row("Token ratio (o200k_base)", s.TokenRatioO200K, times)
	row("Elements found", s.Elements, count)
	row("Interactive found", s.Interactive, count)
	row("Fetch time (ms)", s.FetchMS, millis)
	row("Parse+SOM time (ms)", s.ParseSOMMS, millis)

	fmt.Fprintf(&b, "\n## Token estimate error\n\n")
	fmt.Fprintf(&b, "The spec's v0.1 estimate (bytes / 4) against exact cl100k_base counts, over the successful URLs:\n\n")
	fmt.Fprintf(&b, "| | HTML | SOM |\n|---|---|---|\n")
	fmt.Fprintf(&b, "| Mean error (estimate − exact) / exact | %s | %s |\n", signedPct(s.EstErrorHTML), signedPct(s.EstErrorSOM))
	fmt.Fprintf(&b, "| Mean absolute error | %.1f%% | %.1f%% |\n", s.EstAbsErrorHTML, s.EstAbsErrorSOM)

	fmt.Fprintf(&b, "\n## Method\n\n")
	fmt.Fprintf(&b, "- Each URL is loaded in a fresh session through the pipeline `page.navigate` uses: fetch (redirects, cookies, decoding), parse, compile.\n")
	fmt.Fprintf(&b, "- Statistics cover the successful URLs only; failed URLs stay in the table below with their AWP error code.\n")
	fmt.Fprintf(&b, "- Ratios (HTML / SOM) are computed per URL first, then averaged: the mean ratio is not the ratio of the mean sizes.\n")
	fmt.Fprintf(&b, "- Median: the middle value (mean of the two middle values for an even count). P95: nearest rank, the smallest value with at least 95%% of the values at or below it.\n")
	fmt.Fprintf(&b, "- HTML bytes: the body as received, after content decoding. SOM bytes: the compact JSON `page.observe` returns.\n")
	fmt.Fprintf(&b, "- Tokens (est): bytes / 4. Exact tokens: tiktoken-go with its offline vocabularies, on the HTML decoded to UTF-8 and on the SOM JSON.\n")
	fmt.Fprintf(&b, "- Fetch time: request to last body byte, redirects included. Parse+SOM time: parsing, compiling and encoding the SOM.\n")

	fmt.Fprintf(&b, "\n## Per-URL Results\n\n")
	fmt.Fprintf(&b, "| URL | HTML bytes | SOM bytes | Ratio | Token ratio (cl100k) | Elements | Interactive | Fetch ms | Parse+SOM ms | Status |\n")
	fmt.Fprintf(&b, "|---|---|---|---|---|---|---|---|---|---|\n")
	for _, res := range r.Results {
		status := res.Status
		if !res.OK() && res.Status != StatusEmpty {
			status = res.Status + ": " + cell(res.Error)
		}
		if !res.OK() {
			fmt.Fprintf(&b, "| %s | %s | %s | | | %s | %s | %s | %s | %s |\n", shortURL(res.URL),
				dashIfZero(res.HTMLBytes), dashIfZero(res.SOMBytes), dashIfZero(res.Elements), dashIfZero(res.Interactive),
				millisOrDash(res.FetchMS), millisOrDash(res.ParseSOMMS), status)
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", shortURL(res.URL),
			count(float64(res.HTMLBytes)), count(float64(res.SOMBytes)), times(res.ByteRatio), times(res.TokenRatioCL100K),
			count(float64(res.Elements)), count(float64(res.Interactive)), millis(res.FetchMS), millis(res.ParseSOMMS), status)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// count writes a whole number with thousands separators: 38,412.
func count(v float64) string {
	n := int64(math.Round(v))
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var out []byte
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

func times(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) + "x" }

func millis(v float64) string {
	if v >= 100 {
		return count(v)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

func millisOrDash(v float64) string {
	if v == 0 {
		return "–"
	}
	return millis(v)
}

func dashIfZero(n int) string {
	if n == 0 {
		return "–"
	}
	return count(float64(n))
}

func percent(a, b int) string {
	if b == 0 {
		return "0%"
	}
	return strconv.FormatFloat(100*float64(a)/float64(b), 'f', 0, 64) + "%"
}

func signedPct(v float64) string { return fmt.Sprintf("%+.1f%%", v) }

// shortURL drops the scheme and cuts long URLs, as the spec's table does.
func shortURL(u string) string {
	u = strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://")
	if r := []rune(u); len(r) > 60 {
		u = string(r[:57]) + "..."
	}
	return cell(u)
}

// cell keeps text from breaking a Markdown table.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", "\\|")
	return strings.Join(strings.Fields(s), " ")
}
