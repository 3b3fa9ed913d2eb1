package som

import (
	"strings"

	"github.com/plasmate/plasmate/domain/dom"
)

// hidden reports whether an element is hidden by the heuristics v0.1
// allows without CSS: the hidden attribute, aria-hidden="true", an inline
// display:none or visibility:hidden, a hidden input and a closed dialog.
func hidden(n *dom.Node) bool {
	for _, a := range n.Attrs {
		switch a.Key {
		case "hidden":
			return true
		case "aria-hidden":
			if strings.EqualFold(strings.TrimSpace(a.Val), "true") {
				return true
			}
		case "style":
			if styleHides(a.Val) {
				return true
			}
		case "type":
			if n.Tag == "input" && strings.EqualFold(strings.TrimSpace(a.Val), "hidden") {
				return true
			}
		}
	}
	// A <dialog> without open is not rendered by browsers.
	return n.Tag == "dialog" && !n.Has("open")
}

// styleHides reports whether an inline style declares display:none or
// visibility:hidden (or collapse).
func styleHides(style string) bool {
	if !strings.Contains(style, "none") && !strings.Contains(style, "hidden") &&
		!strings.Contains(style, "collapse") && !strings.ContainsAny(style, "NHC") {
		return false
	}
	for decl := range strings.SplitSeq(style, ";") {
		prop, val, ok := strings.Cut(decl, ":")
		if !ok {
			continue
		}
		prop = strings.ToLower(strings.TrimSpace(prop))
		val = strings.ToLower(strings.TrimSpace(val))
		val = strings.TrimSpace(strings.TrimSuffix(val, "!important"))
		switch {
		case prop == "display" && val == "none":
			return true
		case prop == "visibility" && (val == "hidden" || val == "collapse"):
			return true
		}
	}
	return false
}

// omitted reports whether an element's whole subtree is left out of the
// SOM whatever its attributes: scripts, styles, metadata, embedded
// documents and media whose fallback content a browser does not show.
func omitted(tag string) bool {
	switch tag {
	case "script", "style", "noscript", "template", "head", "meta", "link", "title",
		"base", "iframe", "frame", "frameset", "noframes", "object", "embed", "applet",
		"canvas", "video", "audio", "map", "area", "source", "track", "param",
		"datalist", "option", "optgroup", "slot":
		return true
	}
	return false
}

// inlineTag reports whether an element is phrasing content, whose text
// joins the surrounding text rather than starting a new block. Unknown and
// custom elements count as blocks: pages use them as components.
func inlineTag(tag string) bool {
	switch tag {
	case "a", "abbr", "acronym", "b", "bdi", "bdo", "big", "cite", "code", "data",
		"del", "dfn", "em", "font", "i", "ins", "kbd", "label", "mark", "nobr", "q",
		"rp", "rt", "ruby", "s", "samp", "small", "span", "strike", "strong", "sub",
		"sup", "time", "tt", "u", "var", "wbr", "output", "meter", "progress", "img",
		"picture", "br", "input", "button", "select", "textarea", "svg", "math":
		return true
	}
	return false
}

// ariaRole is the first token of the role attribute, lower-cased.
func ariaRole(n *dom.Node) string {
	v, ok := n.Attr("role")
	if !ok {
		return ""
	}
	v = strings.TrimSpace(v)
	if i := strings.IndexAny(v, " \t\n"); i >= 0 {
		v = v[:i]
	}
	return strings.ToLower(v)
}
