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
	// maxRunBytes bounds the text buffered for one element: anything
	// past it would be cut anyway, and a 1 MB text node must not cost
	// 1 MB of copying per element that contains it.
	maxRunBytes = 4 * maxTextRunes * utf8.UTFMax
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

// add appends s, folding white space.
func (t *textBuf) add(s string) {
	if t.full {
		return
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v' {
				t.space = true
				i++
				continue
			}
			t.emitSpace()
			t.b = append(t.b, c)
			i++
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
func (t *textBuf) text() string { return truncate(string(t.b)) }

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

// normalizeName is the accessible name as it goes into an element id:
// lower-cased, white space folded, cut to 100 characters.
func normalizeName(s string) string {
	s = strings.ToLower(s)
	n := 0
	for i := range s {
		if n == maxNameRunes {
			return strings.TrimRight(s[:i], " ")
		}
		n++
	}
	return s
}
