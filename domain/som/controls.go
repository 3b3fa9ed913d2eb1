package som

import (
	"net/url"
	"strings"

	"github.com/plasmate/plasmate/domain/dom"
)

// controlRole is the SOM role of an element an agent acts on, or "".
func controlRole(n *dom.Node, role string) string {
	switch n.Tag {
	case "a":
		if n.Has("href") {
			return RoleLink
		}
	case "button":
		return RoleButton
	case "textarea":
		return RoleTextarea
	case "select":
		return RoleSelect
	case "input":
		switch inputType(n) {
		case "submit", "button", "reset", "image":
			return RoleButton
		case "checkbox":
			return RoleCheckbox
		case "radio":
			return RoleRadio
		case "hidden":
			return ""
		default:
			return RoleTextInput
		}
	}
	switch role {
	case "link":
		return RoleLink
	case "button", "tab", "menuitem", "menuitemcheckbox", "menuitemradio":
		return RoleButton
	case "checkbox", "switch":
		return RoleCheckbox
	case "radio":
		return RoleRadio
	case "textbox", "searchbox", "combobox":
		return RoleTextInput
	}
	return ""
}

// inputType is an input's type, lower-cased; a missing or unknown type is
// "text", as in browsers.
func inputType(n *dom.Node) string {
	t := strings.ToLower(strings.TrimSpace(n.AttrOr("type")))
	switch t {
	case "submit", "button", "reset", "image", "checkbox", "radio", "hidden",
		"text", "email", "password", "search", "tel", "url", "number",
		"date", "datetime-local", "month", "week", "time", "color", "range", "file":
		return t
	}
	return "text"
}

// control builds a link, button or form control, queues it after the
// current text run, and walks its content as the control's own text.
func (c *compiler) control(n *dom.Node, role string) {
	native := n.Tag == "a" || n.Tag == "button" || n.Tag == "input" || n.Tag == "select" || n.Tag == "textarea"
	var text, label string
	switch role {
	case RoleLink, RoleButton:
		text = c.controlText(n)
		// As in accessible-name computation, a title names a link or
		// button only when it has no content; otherwise it is a
		// tooltip, and repeating it would cost tokens for nothing.
		label = c.ariaLabel(n)
		if label == "" && text == "" {
			label = fold(n.AttrOr("title"))
		}
		if label == text {
			label = ""
		}
	default:
		label = c.controlLabel(n)
	}
	name := label
	if name == "" {
		name = text
	}
	e := c.newElement(n, role, name, c.path)
	e.Text = truncate(text)
	e.Label = truncate(label)
	e.Actions = actionsByRole[role]
	c.controlAttrs(e, n, role, native)
	c.pending = append(c.pending, e)

	if n.Tag == "input" || n.Tag == "select" || n.Tag == "textarea" {
		return
	}
	// The content of a link or button is its text; links and controls
	// nested in it (invalid, but seen) are still elements of their own.
	// A link's text is also part of the prose around it; a button is a
	// widget of its own, and its text stays out of the paragraph.
	if role == RoleLink {
		c.inline++
		c.children(n)
		c.inline--
		return
	}
	c.run.sep()
	c.quiet++
	c.children(n)
	c.quiet--
	c.run.sep()
}

// controlText is the visible text of a link or button.
func (c *compiler) controlText(n *dom.Node) string {
	if n.Tag == "input" {
		v, has := n.Attr("value")
		switch inputType(n) {
		case "submit":
			if !has {
				return "Submit"
			}
		case "reset":
			if !has {
				return "Reset"
			}
		case "image":
			if alt := fold(n.AttrOr("alt")); alt != "" {
				return alt
			}
			if !has {
				return "Submit"
			}
		}
		return fold(v)
	}
	return c.textOf(n)
}

func (c *compiler) controlAttrs(e *Element, n *dom.Node, role string, native bool) {
	disabled := c.disabled > 0 || n.Has("disabled") || strings.EqualFold(n.AttrOr("aria-disabled"), "true")
	if tid, ok := n.Attr("data-testid"); ok && tid != "" {
		c.attrs(e).TestID = tid
	}
	switch role {
	case RoleLink:
		if href, ok := n.Attr("href"); ok {
			c.attrs(e).Href = c.href(href)
		}
	case RoleButton:
		if disabled {
			c.ctlAttrs(e).Disabled = true
		}
		if f, ok := n.Attr("form"); ok && (n.Tag == "button" || n.Tag == "input") {
			if fn := c.byID[strings.TrimSpace(f)]; fn != nil && fn.Tag == "form" {
				c.attrs(e).formNode = fn
			}
		}
	case RoleTextInput, RoleTextarea:
		a := c.ctlAttrs(e)
		if n.Tag == "input" {
			a.InputType = inputType(n)
			a.Value = truncate(n.AttrOr("value"))
		} else if n.Tag == "textarea" {
			a.Value = truncate(rawText(n))
		}
		a.Placeholder = fold(n.AttrOr("placeholder"))
		a.Required = n.Has("required") || strings.EqualFold(n.AttrOr("aria-required"), "true")
		a.Disabled = disabled
	case RoleSelect:
		a := c.ctlAttrs(e)
		a.Options = selectOptions(n)
		a.Multiple = n.Has("multiple")
		a.Required = n.Has("required")
		a.Disabled = disabled
	case RoleCheckbox, RoleRadio:
		a := c.ctlAttrs(e)
		if native {
			a.Checked = n.Has("checked")
		} else {
			a.Checked = strings.EqualFold(n.AttrOr("aria-checked"), "true")
		}
		a.Disabled = disabled
		if role == RoleRadio {
			a.Group = n.AttrOr("name")
		}
	}
	if e.Attrs != nil && e.Attrs.empty() {
		e.Attrs = nil
	}
}

// href is a link target as written, or resolved when a <base> element
// changes what it resolves against.
func (c *compiler) href(raw string) string {
	raw = strings.TrimSpace(raw)
	if !c.rewriteHref || raw == "" {
		return raw
	}
	ref, err := url.Parse(raw)
	if err != nil || ref.IsAbs() {
		return raw
	}
	abs := c.base.ResolveReference(ref)
	if abs.Scheme == c.pageURL.Scheme && abs.Host == c.pageURL.Host && abs.Opaque == "" {
		// Same origin: the path is enough to resolve against som.url,
		// and costs fewer tokens than the absolute URL.
		abs.Scheme, abs.Host, abs.User = "", "", nil
	}
	return abs.String()
}

// rawText is the text content of an element as written (a textarea's
// value keeps its line breaks).
func rawText(n *dom.Node) string {
	var b strings.Builder
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		if ch.Type == dom.Text {
			b.WriteString(ch.Data)
		}
	}
	return b.String()
}

// selectOptions lists a select's options, optgroups flattened. A single
// select with no selected option shows (and submits) its first one, so
// that one is marked selected, as a browser does.
func selectOptions(n *dom.Node) []Option {
	var opts []Option
	var walk func(*dom.Node)
	walk = func(p *dom.Node) {
		for ch := p.FirstChild; ch != nil; ch = ch.NextSibling {
			if ch.Type != dom.Element || ch.Foreign {
				continue
			}
			switch ch.Tag {
			case "option":
				text := fold(rawText(ch))
				v, ok := ch.Attr("value")
				if !ok {
					v = text
				}
				opts = append(opts, Option{Value: v, Text: truncate(text), Selected: ch.Has("selected")})
			case "optgroup":
				walk(ch)
			}
		}
	}
	walk(n)
	if !n.Has("multiple") && len(opts) > 0 {
		any := false
		for _, o := range opts {
			any = any || o.Selected
		}
		if !any {
			opts[0].Selected = true
		}
	}
	return opts
}

// image emits an <img>, unless it is decorative: alt="", a presentation
// role, a 1×1 tracking pixel, or nothing to show.
func (c *compiler) image(n *dom.Node) {
	if c.inline > 0 || c.quiet > 0 {
		return
	}
	alt, hasAlt := n.Attr("alt")
	alt = fold(alt)
	if hasAlt && alt == "" {
		return
	}
	if w, h := n.AttrOr("width"), n.AttrOr("height"); (w == "0" || w == "1") && (h == "0" || h == "1") {
		return
	}
	src := imageSrc(n)
	if src == "" && alt == "" {
		return
	}
	e := c.newElement(n, RoleImage, alt, c.path)
	a := c.attrs(e)
	a.Alt = truncate(alt)
	if src != "" {
		a.Src = c.href(src)
	}
	c.pending = append(c.pending, e)
}

// imageSrc is an image's source. data: URIs are inlined bytes, often
// kilobytes, worth nothing to an agent: the lazy-loading attribute that
// holds the real URL is used instead, or no src at all.
func imageSrc(n *dom.Node) string {
	src := strings.TrimSpace(n.AttrOr("src"))
	if src == "" || strings.HasPrefix(src, "data:") {
		for _, k := range []string{"data-src", "data-lazy-src", "data-original"} {
			if v := strings.TrimSpace(n.AttrOr(k)); v != "" && !strings.HasPrefix(v, "data:") {
				return v
			}
		}
		return ""
	}
	return src
}

// ariaImage is an element with role=img: its name is the alt text.
func (c *compiler) ariaImage(n *dom.Node) {
	if c.inline > 0 || c.quiet > 0 {
		return
	}
	name := c.ariaLabel(n)
	if name == "" {
		name = fold(n.AttrOr("title"))
	}
	if name == "" && n.Tag == "img" {
		c.image(n)
		return
	}
	if name == "" {
		return
	}
	e := c.newElement(n, RoleImage, name, c.path)
	c.attrs(e).Alt = truncate(name)
	if n.Tag == "img" {
		if src := imageSrc(n); src != "" {
			e.Attrs.Src = c.href(src)
		}
	}
	c.pending = append(c.pending, e)
}

// ariaLabel is the name from aria-label, else aria-labelledby.
func (c *compiler) ariaLabel(n *dom.Node) string {
	if v := fold(n.AttrOr("aria-label")); v != "" {
		return v
	}
	ids, ok := n.Attr("aria-labelledby")
	if !ok {
		return ""
	}
	var parts []string
	for _, id := range strings.Fields(ids) {
		if ref := c.byID[id]; ref != nil {
			if t := c.textOf(ref); t != "" {
				parts = append(parts, t)
			}
		}
	}
	return strings.Join(parts, " ")
}

// controlLabel is a form control's label, in the spec's order of
// preference: aria-label, aria-labelledby, label[for], a wrapping label,
// title, placeholder.
func (c *compiler) controlLabel(n *dom.Node) string {
	if l := c.ariaLabel(n); l != "" {
		return l
	}
	if id := n.AttrOr("id"); id != "" {
		if l := c.labelFor[id]; l != nil {
			if t := c.textOf(l); t != "" {
				return t
			}
		}
	}
	for p := n.Parent; p != nil && p.Type == dom.Element; p = p.Parent {
		if p.Tag == "label" {
			if t := c.textOf(p); t != "" {
				return t
			}
			break
		}
		if p.Tag == "form" || p.Tag == "body" {
			break
		}
	}
	if t := fold(n.AttrOr("title")); t != "" {
		return t
	}
	return fold(n.AttrOr("placeholder"))
}

// labelsControl reports whether a <label> names a control: by its for
// attribute or by wrapping one.
func (c *compiler) labelsControl(n *dom.Node) bool {
	if id, ok := n.Attr("for"); ok {
		if t := c.byID[id]; t != nil && labelable(t) {
			return true
		}
	}
	return n.Find(func(x *dom.Node) bool { return x != n && labelable(x) }) != nil
}

func labelable(n *dom.Node) bool {
	switch n.Tag {
	case "select", "textarea", "button":
		return !n.Foreign
	case "input":
		return !n.Foreign && inputType(n) != "hidden"
	}
	return false
}

// textOf is the visible text of an element's subtree, folded and
// truncated, with image alt text and SVG titles standing for images.
// Form controls inside contribute nothing: their values are not labels.
func (c *compiler) textOf(n *dom.Node) string {
	c.gather.reset()
	c.gatherText(n)
	return c.gather.text()
}

func (c *compiler) gatherText(n *dom.Node) {
	for ch := n.FirstChild; ch != nil && !c.gather.full; ch = ch.NextSibling {
		switch ch.Type {
		case dom.Text:
			c.gather.add(ch.Data)
		case dom.Element:
			if ch.Foreign {
				if ch.Tag == "svg" && !hidden(ch) {
					if name := c.svgNameNoGather(ch); name != "" {
						c.gather.sep()
						c.gather.add(name)
						c.gather.sep()
					}
				}
				continue
			}
			if omitted(ch.Tag) || hidden(ch) {
				continue
			}
			switch ch.Tag {
			case "img":
				c.gather.sep()
				c.gather.add(ch.AttrOr("alt"))
				c.gather.sep()
			case "input", "select", "textarea":
			case "br":
				c.gather.sep()
			default:
				block := !inlineTag(ch.Tag)
				if block {
					c.gather.sep()
				}
				c.gatherText(ch)
				if block {
					c.gather.sep()
				}
			}
		}
	}
}

// svgNameNoGather is an SVG's name from aria-label or its <title>, read
// without the gather buffer (which is in use by the caller).
func (c *compiler) svgNameNoGather(n *dom.Node) string {
	if v := fold(n.AttrOr("aria-label")); v != "" {
		return v
	}
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		if ch.Type == dom.Element && ch.Tag == "title" {
			return fold(rawText(ch))
		}
	}
	return ""
}

func (c *compiler) formLabel(n *dom.Node) string {
	if t := fold(n.AttrOr("title")); t != "" {
		return t
	}
	if lg := n.Find(func(x *dom.Node) bool { return x.IsElement("legend") }); lg != nil {
		var b textBuf
		b.add(rawText(lg))
		return b.text()
	}
	return fold(n.AttrOr("name"))
}

// formAction is the form's action resolved against the document base; an
// empty action submits to the page itself.
func (c *compiler) formAction(n *dom.Node) string {
	raw := strings.TrimSpace(n.AttrOr("action"))
	if c.base == nil {
		return raw
	}
	if raw == "" {
		return c.pageURL.String()
	}
	ref, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return c.base.ResolveReference(ref).String()
}

func formMethod(n *dom.Node) string {
	if strings.EqualFold(strings.TrimSpace(n.AttrOr("method")), "post") {
		return "POST"
	}
	return "GET"
}
