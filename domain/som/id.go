package som

import (
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"strconv"
	"strings"
)

// elementID is "e_" + the first 12 hex digits of
// sha256(origin|role|name|dom_path), as section 6 of the spec says.
func elementID(origin, role, name, path string) string {
	h := sha256.New()
	h.Write([]byte(origin))
	h.Write([]byte{'|'})
	h.Write([]byte(role))
	h.Write([]byte{'|'})
	h.Write([]byte(name))
	h.Write([]byte{'|'})
	h.Write([]byte(path))
	var sum [sha256.Size]byte
	var out [2 + 12]byte
	out[0], out[1] = 'e', '_'
	hex.Encode(out[2:], h.Sum(sum[:0])[:6])
	return string(out[:])
}

// origin is the URL's scheme://host[:port], or "null" for URLs that
// have none (about:blank, data:), as browsers serialize opaque origins.
func origin(u *url.URL) string {
	if u == nil || u.Host == "" {
		return "null"
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host)
}

// joinPath writes element-child indices as "0/3/1".
func joinPath(path []int) string {
	var b strings.Builder
	for i, p := range path {
		if i > 0 {
			b.WriteByte('/')
		}
		b.WriteString(strconv.Itoa(p))
	}
	return b.String()
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
