// Package htmlcharset decodes HTML to UTF-8 the way a browser picks the
// encoding: a byte-order mark, the Content-Type charset, a <meta charset>
// in the first 1024 bytes, else windows-1252 for bytes that are not UTF-8.
package htmlcharset

import (
	"bytes"
	"mime"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
)

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// Decode returns body as UTF-8 and the name of the encoding it was in.
// A UTF-8 body is returned as is, without copying.
func Decode(body []byte, contentType string) ([]byte, string) {
	enc, name, certain := charset.DetermineEncoding(body, contentType)
	if name == "windows-1252" && !certain && !declaresCharset(body) && utf8.Valid(body) {
		// No declaration anywhere, and DetermineEncoding judged by the
		// first 1024 bytes only: a document that is valid UTF-8 from end
		// to end is UTF-8, as Firefox decides for undeclared files.
		name, enc = "utf-8", unicode.UTF8
	}
	if name == "utf-8" || enc == encoding.Nop || enc == unicode.UTF8 {
		return bytes.TrimPrefix(body, utf8BOM), "utf-8"
	}
	out, err := enc.NewDecoder().Bytes(body)
	if err != nil {
		// Decoders replace what they cannot map; an error here means a
		// broken decoder state, so fall back to the raw bytes.
		return body, name
	}
	return out, name
}

// declaresCharset reports whether the prescan window (the first 1024
// bytes) holds a charset declaration.
func declaresCharset(body []byte) bool {
	if len(body) > 1024 {
		body = body[:1024]
	}
	return bytes.Contains(bytes.ToLower(body), []byte("charset"))
}

// DecodeText decodes a response body when its content type is textual
// (HTML above all) and returns other bodies as they are.
func DecodeText(body []byte, contentType string) ([]byte, string) {
	mt, _, _ := mime.ParseMediaType(contentType)
	if strings.HasPrefix(mt, "text/") || strings.HasSuffix(mt, "+xml") || mt == "" {
		return Decode(body, contentType)
	}
	return body, ""
}
