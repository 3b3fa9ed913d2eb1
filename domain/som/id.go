package som

import (
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"strconv"
	"strings"
)

// elementID is "e_" + the first 12 hex digits of
// sha256(origin|role|name|dom_path), as section 6 of the spec says; name
// is the folded accessible name, normalized here. buf is
// scratch space, returned for reuse: an id costs one allocation, the
// string itself.
func elementID(buf []byte, origin, role, name string, path []int) (string, []byte) {
	buf = append(buf[:0], origin...)
	buf = append(buf, '|')
	buf = append(buf, role...)
	buf = append(buf, '|')
	buf = appendName(buf, name)
	buf = append(buf, '|')
	for i, p := range path {
		if i > 0 {
			buf = append(buf, '/')
		}
		buf = strconv.AppendInt(buf, int64(p), 10)
	}
	sum := sha256.Sum256(buf)
	var out [2 + 12]byte
	out[0], out[1] = 'e', '_'
	hex.Encode(out[2:], sum[:6])
	return string(out[:]), buf
}

// origin is the URL's scheme://host[:port], or "null" for URLs that
// have none (about:blank, data:), as browsers serialize opaque origins.
func origin(u *url.URL) string {
	if u == nil || u.Host == "" {
		return "null"
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host)
}

// idAllocator hands out collision suffixes in document order.
type idAllocator map[string]int

func (a idAllocator) unique(id string) string {
	n := a[id] + 1
	a[id] = n
	if n == 1 {
		return id
	}
	return id + "_" + strconv.Itoa(n)
}
