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

// normalizeName is the accessible name as it goes into an element id:
// lower-cased, white space folded, cut to 100 characters. s must be
// folded already.
func normalizeName(s string) string {
	s = cutRunes(s, maxNameRunes)
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || ('A' <= c && c <= 'Z') {
			return strings.TrimRight(cutRunes(strings.ToLower(s), maxNameRunes), " ")
		}
	}
	return strings.TrimRight(s, " ")
}

// cutRunes returns the first n characters of s.
func cutRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	k := 0
	for i := range s {
		if k == n {
			return s[:i]
		}
		k++
	}
	return s
}
