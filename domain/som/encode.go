package som

import (
	"strconv"
	"unicode/utf8"
)

// The SOM is encoded by hand rather than with encoding/json: reflection
// cost as much as compiling the page did. The output is byte for byte
// what encoding/json gives with SetEscapeHTML(false) (a test holds it to
// that), so any JSON library reads it.

func appendSOM(b []byte, s *SOM) []byte {
	b = append(b, `{"som_version":`...)
	b = appendString(b, s.SOMVersion)
	b = append(b, `,"url":`...)
	b = appendString(b, s.URL)
	b = append(b, `,"title":`...)
	b = appendString(b, s.Title)
	b = append(b, `,"lang":`...)
	b = appendString(b, s.Lang)
	b = append(b, `,"regions":`...)
	if s.Regions == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, r := range s.Regions {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendRegion(b, r)
		}
		b = append(b, ']')
	}
	b = append(b, `,"meta":{"html_bytes":`...)
	b = strconv.AppendInt(b, int64(s.Meta.HTMLBytes), 10)
	b = append(b, `,"som_bytes":`...)
	b = strconv.AppendInt(b, int64(s.Meta.SOMBytes), 10)
	b = append(b, `,"element_count":`...)
	b = strconv.AppendInt(b, int64(s.Meta.ElementCount), 10)
	b = append(b, `,"interactive_count":`...)
	b = strconv.AppendInt(b, int64(s.Meta.InteractiveCount), 10)
	return append(b, "}}"...)
}

func appendRegion(b []byte, r *Region) []byte {
	b = append(b, `{"id":`...)
	b = appendString(b, r.ID)
	b = append(b, `,"role":`...)
	b = appendString(b, r.Role)
	b = appendOptString(b, `,"label":`, r.Label)
	b = appendOptString(b, `,"action":`, r.Action)
	b = appendOptString(b, `,"method":`, r.Method)
	b = append(b, `,"elements":`...)
	if r.Elements == nil {
		b = append(b, "null"...)
	} else {
		b = appendElements(b, r.Elements)
	}
	return append(b, '}')
}

func appendElements(b []byte, els []*Element) []byte {
	b = append(b, '[')
	for i, e := range els {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendElement(b, e)
	}
	return append(b, ']')
}

func appendElement(b []byte, e *Element) []byte {
	b = append(b, `{"id":`...)
	b = appendString(b, e.ID)
	b = append(b, `,"role":`...)
	b = appendString(b, e.Role)
	b = appendOptString(b, `,"text":`, e.Text)
	b = appendOptString(b, `,"label":`, e.Label)
	if len(e.Actions) > 0 {
		b = append(b, `,"actions":`...)
		b = appendStrings(b, e.Actions)
	}
	if e.Attrs != nil {
		b = append(b, `,"attrs":`...)
		b = appendAttrs(b, e.Attrs)
	}
	if len(e.Children) > 0 {
		b = append(b, `,"children":`...)
		b = appendElements(b, e.Children)
	}
	return append(b, '}')
}

func appendAttrs(b []byte, a *Attrs) []byte {
	start := len(b)
	b = append(b, '{')
	b = appendOptString(b, `,"href":`, a.Href)
	b = appendOptInt(b, `,"level":`, a.Level)
	b = appendOptString(b, `,"alt":`, a.Alt)
	b = appendOptString(b, `,"src":`, a.Src)
	if c := a.ControlAttrs; c != nil {
		b = appendControlAttrs(b, c)
	}
	if k := a.BlockAttrs; k != nil {
		b = appendBlockAttrs(b, k)
	}
	b = appendOptString(b, `,"testid":`, a.TestID)
	if len(b) > start+1 {
		// Every field was written with a leading comma: drop the first.
		b = append(b[:start+1], b[start+2:]...)
	}
	return append(b, '}')
}

func appendControlAttrs(b []byte, c *ControlAttrs) []byte {
	b = appendOptString(b, `,"input_type":`, c.InputType)
	b = appendOptString(b, `,"placeholder":`, c.Placeholder)
	b = appendOptString(b, `,"value":`, c.Value)
	b = appendOptBool(b, `,"checked":`, c.Checked)
	b = appendOptString(b, `,"group":`, c.Group)
	b = appendOptBool(b, `,"required":`, c.Required)
	b = appendOptBool(b, `,"disabled":`, c.Disabled)
	b = appendOptBool(b, `,"multiple":`, c.Multiple)
	b = appendOptString(b, `,"form_id":`, c.FormID)
	if len(c.Options) > 0 {
		b = append(b, `,"options":[`...)
		for i, o := range c.Options {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"value":`...)
			b = appendString(b, o.Value)
			b = append(b, `,"text":`...)
			b = appendString(b, o.Text)
			b = append(b, `,"selected":`...)
			b = strconv.AppendBool(b, o.Selected)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return b
}

func appendBlockAttrs(b []byte, k *BlockAttrs) []byte {
	b = appendOptBool(b, `,"ordered":`, k.Ordered)
	if len(k.Items) > 0 {
		b = append(b, `,"items":[`...)
		for i, it := range k.Items {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"text":`...)
			b = appendString(b, it.Text)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if len(k.Headers) > 0 {
		b = append(b, `,"headers":`...)
		b = appendStrings(b, k.Headers)
	}
	if len(k.Rows) > 0 {
		b = append(b, `,"rows":[`...)
		for i, row := range k.Rows {
			if i > 0 {
				b = append(b, ',')
			}
			if row == nil {
				b = append(b, "null"...)
			} else {
				b = appendStrings(b, row)
			}
		}
		b = append(b, ']')
	}
	b = appendOptInt(b, `,"row_count":`, k.RowCount)
	return appendOptString(b, `,"section_label":`, k.SectionLabel)
}

func appendStrings(b []byte, ss []string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

func appendOptString(b []byte, key, v string) []byte {
	if v == "" {
		return b
	}
	return appendString(append(b, key...), v)
}

func appendOptInt(b []byte, key string, v int) []byte {
	if v == 0 {
		return b
	}
	return strconv.AppendInt(append(b, key...), int64(v), 10)
}

func appendOptBool(b []byte, key string, v bool) []byte {
	if !v {
		return b
	}
	return append(append(b, key...), "true"...)
}

const hexDigits = "0123456789abcdef"

// appendString writes s as a JSON string the way encoding/json does
// without HTML escaping: control characters escaped, invalid UTF-8
// replaced by U+FFFD, U+2028 and U+2029 escaped for JavaScript's sake.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
