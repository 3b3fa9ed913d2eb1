package som

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

const (
	// maxTextRunes is the spec's cap on an element's text; longer text
	// is cut there and "..." appended.
	maxTextRunes = 200
	// maxNameRunes is how much of the accessible name goes into an id.
	maxNameRunes = 100
	// maxRunBytes bounds the text buffered for one element: enough to
	// hold 201 characters of any width, which is all truncation needs to
	// see; a 1 MB text node must not cost 1 MB of copying.
	maxRunBytes = (maxTextRunes + 1) * utf8.UTFMax
)

// textBuf accumulates text with whitespace folded: runs of white space
// (any Unicode space, so NBSP too) become one space, and leading and
// trailing space is dropped.
type textBuf struct {
	b       []byte
	space   bool // a space is owed before the next non-space rune
	full    bool // maxRunBytes reached: the rest is dropped
	hasText bool
}

func (t *textBuf) reset() {
	t.b = t.b[:0]
	t.space, t.full, t.hasText = false, false, false
}

// add appends s, folding white space. Runs of visible ASCII are copied
// in one append: text nodes are mostly words.
func (t *textBuf) add(s string) {
	if t.full {
		return
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if asciiSpace[c] {
				t.space = true
				i++
				continue
			}
			j := i + 1
			for j < len(s) && s[j] < utf8.RuneSelf && !asciiSpace[s[j]] {
				j++
			}
			t.emitSpace()
			t.b = append(t.b, s[i:j]...)
			i = j
		} else {
			r, size := utf8.DecodeRuneInString(s[i:])
			if unicode.IsSpace(r) {
				t.space = true
				i += size
				continue
			}
			t.emitSpace()
			t.b = append(t.b, s[i:i+size]...)
			i += size
		}
		if len(t.b) >= maxRunBytes {
			t.full = true
			return
		}
	}
}

var asciiSpace = [utf8.RuneSelf]bool{' ': true, '\n': true, '\t': true, '\r': true, '\f': true, '\v': true}

// sep marks a boundary between blocks or words: a space is owed.
func (t *textBuf) sep() { t.space = true }

func (t *textBuf) emitSpace() {
	if t.space && len(t.b) > 0 {
		t.b = append(t.b, ' ')
	}
	t.space = false
	t.hasText = true
}

func (t *textBuf) empty() bool { return len(t.b) == 0 }

// text returns the folded text, truncated to the spec's 200 characters.
func (t *textBuf) text() string {
	if len(t.b) <= maxTextRunes {
		return string(t.b)
	}
	return truncate(string(cutBytes(t.b, (maxTextRunes+1)*utf8.UTFMax)))
}

// cutBytes cuts b to at most n bytes without splitting a character.
func cutBytes(b []byte, n int) []byte {
	if len(b) <= n {
		return b
	}
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return b[:n]
}

// fold folds the white space of s and trims it, without truncating.
func fold(s string) string {
	var t textBuf
	t.add(s)
	return string(t.b)
}

// truncate cuts s to maxTextRunes characters and appends "..." when it
// was longer.
func truncate(s string) string {
	if len(s) <= maxTextRunes {
		return s
	}
	n := 0
	for i := range s {
		if n == maxTextRunes {
			return strings.TrimRight(s[:i], " ") + "..."
		}
		n++
	}
	return s
}

// appendName appends the accessible name as it goes into an element id:
// lower-cased and cut to 100 characters (s is folded already), written
// straight into the hash input.
func appendName(b []byte, s string) []byte {
	start, n := len(b), 0
	for i := 0; i < len(s) && n < maxNameRunes; n++ {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b = append(b, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		b = utf8.AppendRune(b, unicode.ToLower(r))
		i += size
	}
	for len(b) > start && b[len(b)-1] == ' ' {
		b = b[:len(b)-1]
	}
	return b
}

// normalizeName is appendName as a string.
func normalizeName(s string) string { return string(appendName(nil, s)) }
