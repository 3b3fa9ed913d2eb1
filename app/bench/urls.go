package bench

import (
	"bufio"
	"fmt"
	"io"
	"net/url"
	"strings"
)

// ParseURLs reads a urls file: one URL a line, blank lines and lines
// starting with # skipped, and anything after " #" on a line a comment
// (a URL holds no space, so a fragment like /page#top stays). Relative
// URLs are resolved against base when it is set (bench --serve), and are
// an error otherwise. Errors name the line.
func ParseURLs(r io.Reader, base *url.URL) ([]string, error) {
	var urls []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if i := strings.Index(line, " #"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		if i := strings.Index(line, "\t#"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.ContainsAny(line, " \t") {
			return nil, fmt.Errorf("line %d: %q is not one URL", n, line)
		}
		u, err := url.Parse(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %q: %v", n, line, err)
		}
		if !u.IsAbs() {
			if base == nil {
				return nil, fmt.Errorf("line %d: %q is not an absolute URL (relative URLs need --serve DIR)", n, line)
			}
			u = base.ResolveReference(u)
		}
		if u.Scheme != "http" && u.Scheme != "https" {
			return nil, fmt.Errorf("line %d: %q: only http and https URLs can be benchmarked", n, line)
		}
		// Check the URL as it will be fetched: the resolved string must
		// parse again and name a host.
		final := u.String()
		if back, err := url.Parse(final); err != nil || back.Hostname() == "" {
			return nil, fmt.Errorf("line %d: %q has no valid host", n, line)
		}
		urls = append(urls, final)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read urls: %w", err)
	}
	return urls, nil
}
