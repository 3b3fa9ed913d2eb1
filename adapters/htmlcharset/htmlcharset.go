// Package htmlcharset decodes HTML to UTF-8 the way a browser picks the
// encoding: a byte-order mark, the Content-Type charset, a <meta charset>
// in the first 1024 bytes, else windows-1252 for bytes that are not UTF-8.
package htmlcharset

import (
	"bytes"
	"mime"
	"strings"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
)

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// Decode returns body as UTF-8 and the name of the encoding it was in.
// A UTF-8 body is returned as is, without copying.
func Decode(body []byte, contentType string) ([]byte, string) {
	enc, name, _ := charset.DetermineEncoding(body, contentType)
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

// DecodeText decodes a response body when its content type is textual
// (HTML above all) and returns other bodies as they are.
func DecodeText(body []byte, contentType string) ([]byte, string) {
	mt, _, _ := mime.ParseMediaType(contentType)
	if strings.HasPrefix(mt, "text/") || strings.HasSuffix(mt, "+xml") || mt == "" {
		return Decode(body, contentType)
	}
	return body, ""
}
