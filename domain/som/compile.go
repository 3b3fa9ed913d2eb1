package som

import (
	"cmp"
	"net/url"
	"strconv"
	"strings"

	"github.com/plasmate/plasmate/domain/dom"
)

// Input is what the compiler needs besides the document.
type Input struct {
	// URL is the page's address after redirects: the origin of element
	// ids and the base for resolving form actions.
	URL string
	// HTMLBytes is the size of the HTML as fetched, reported in meta.
	HTMLBytes int
}

// maxNesting caps how deep lists, tables and sections nest in the SOM.
// Deeper structure is flattened into its container so that a pathological
// page cannot produce JSON that agents' parsers refuse.
const maxNesting = 8

// Compile builds the SOM of a parsed document. It never fails: any tree,
// even an empty one, gives a valid SOM.
func Compile(doc *dom.Node, in Input) *SOM {
	c := newCompiler(in)
	s := &SOM{SOMVersion: Version, URL: in.URL, Regions: []*Region{}}
	s.Meta.HTMLBytes = in.HTMLBytes
	if doc != nil {
		// <title> and <base> belong in <head>, which is small; the body
		// scan notes them in case a page puts them elsewhere, so no walk
		// of the whole tree is spent looking for them.
		var title, base *dom.Node
		var body *dom.Node
		for html := doc.FirstChild; html != nil; html = html.NextSibling {
			if !html.IsElement("html") {
				continue
			}
			s.Lang = strings.TrimSpace(html.AttrOr("lang"))
			for ch := html.FirstChild; ch != nil; ch = ch.NextSibling {
				switch {
				case ch.IsElement("head"):
					title = ch.Find(func(n *dom.Node) bool { return n.IsElement("title") })
					base = ch.Find(isBase)
				case ch.IsElement("body") && body == nil:
					body = ch
				}
			}
		}
		if body != nil {
			c.scan(body)
			title, base = cmp.Or(title, c.bodyTitle), cmp.Or(base, c.bodyBase)
		}
		if title != nil {
			var b textBuf
			b.add(rawText(title))
			s.Title = b.text()
		}
		c.setBase(base)
		if body != nil {
			c.body(body)
		}
	}
	s.Regions = c.finish(&s.Meta)
	return s
}

func isBase(n *dom.Node) bool { return n.IsElement("base") && n.Has("href") }

type compiler struct {
	pageURL *url.URL
	base    *url.URL
	// rewriteHref is set when a <base href> makes relative links resolve
	// elsewhere than against the page URL: hrefs are then written
	// resolved, so that every href in the SOM resolves against som.url.
	rewriteHref bool
	origin      string

	scanned

	regions     []*Region
	regionStack []*Region
	content     *Region // the open top-level content region, if any
	formRegions map[*dom.Node]*Region
	dropped     map[*Region]bool

	f      frame
	path   []int
	blocks []block

	run      textBuf
	runLoose bool // the run holds text outside interactive elements
	pending  []*Element

	// inline > 0 inside links: blocks act as inline content, and their
	// text is the link's (and the surrounding prose's, but not loose).
	inline int
	// flat > 0 inside headings and paragraphs: blocks do not split them.
	flat int
	// quiet > 0 inside data tables (whose rows hold the text) and labels
	// (whose text names a control): no text runs, only controls.
	quiet int
	// sectioning > 0 inside article, section, aside, main and nav, where
	// header and footer are not page landmarks.
	sectioning int
	// disabled > 0 inside a disabled fieldset.
	disabled int

	gather textBuf // scratch for gathering an element's text
	idBuf  []byte  // scratch for hashing element ids

	elementSlab []Element
	attrSlab    []Attrs
	created     int
}

// frame is where elements go: a region's elements or a container's
// children.
type frame struct {
	sink  *[]*Element
	list  *Element // the list whose items plain <li> text becomes
	depth int
}

// block is an open block element: it owns the text run inside it.
type block struct {
	n       *dom.Node
	pathLen int
}

func newCompiler(in Input) *compiler {
	c := &compiler{
		formRegions: map[*dom.Node]*Region{},
		dropped:     map[*Region]bool{},
	}
	if u, err := url.Parse(in.URL); err == nil {
		c.pageURL = u
		c.base = u
	}
	c.origin = origin(c.pageURL)
	return c
}

// setBase applies a <base href>: the base URL for forms, and whether
// hrefs must be written resolved.
func (c *compiler) setBase(b *dom.Node) {
	if b == nil || c.pageURL == nil {
		return
	}
	ref, err := url.Parse(strings.TrimSpace(b.AttrOr("href")))
	if err != nil {
		return
	}
	c.base = c.pageURL.ResolveReference(ref)
	pu, bu := *c.pageURL, *c.base
	pu.Fragment, pu.RawFragment = "", ""
	bu.Fragment, bu.RawFragment = "", ""
	c.rewriteHref = pu.String() != bu.String()
}

func (c *compiler) body(body *dom.Node) {
	c.blocks = append(c.blocks, block{n: body})
	c.children(body)
	c.flush()
}

func (c *compiler) children(n *dom.Node) {
	idx := 0
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		switch ch.Type {
		case dom.Text:
			c.text(ch.Data)
		case dom.Element:
			c.path = append(c.path, idx)
			idx++
			c.element(ch)
			c.path = c.path[:len(c.path)-1]
		}
	}
}

func (c *compiler) text(s string) {
	if c.quiet > 0 {
		return
	}
	before := len(c.run.b)
	c.run.add(s)
	if c.inline == 0 && (len(c.run.b) != before || c.run.full) {
		c.runLoose = true
	}
}

// structural reports whether containers and regions may be opened here:
// not inside a control, a heading or a data table.
func (c *compiler) structural() bool {
	return c.inline == 0 && c.flat == 0 && c.quiet == 0
}

func (c *compiler) element(n *dom.Node) {
	if n.Foreign {
		c.foreign(n)
		return
	}
	if omitted(n.Tag) || hidden(n) {
		return
	}
	role := ariaRole(n)
	if c.structural() {
		if rr := c.regionRole(n, role); rr != "" {
			c.region(n, rr)
			return
		}
	}
	if er := controlRole(n, role); er != "" {
		c.control(n, er)
		return
	}
	switch {
	case role == "img":
		c.ariaImage(n)
		return
	case role == "presentation" || role == "none":
		if n.Tag == "img" {
			return
		}
	case role == "heading" || isHeadingTag(n.Tag):
		c.textBlock(n)
		return
	}
	switch n.Tag {
	case "img":
		c.image(n)
	case "br":
		c.run.sep()
	case "hr":
		if c.structural() {
			c.flush()
			c.emit(c.newElement(n, RoleSeparator, "", c.path))
		}
	case "p":
		c.textBlock(n)
	case "ul", "ol", "menu":
		c.list(n)
	case "table":
		c.table(n)
	case "section", "article":
		c.section(n)
	case "label":
		c.label(n)
	case "fieldset":
		if n.Has("disabled") {
			c.disabled++
			c.blockChildren(n)
			c.disabled--
			return
		}
		c.blockChildren(n)
	default:
		if inlineTag(n.Tag) {
			c.children(n)
			return
		}
		c.blockChildren(n)
	}
}

// blockChildren walks a block element: its text forms runs of its own.
func (c *compiler) blockChildren(n *dom.Node) {
	if !c.structural() {
		c.run.sep()
		c.children(n)
		c.run.sep()
		return
	}
	c.flush()
	c.blocks = append(c.blocks, block{n: n, pathLen: len(c.path)})
	c.children(n)
	c.flush()
	c.blocks = c.blocks[:len(c.blocks)-1]
}

// textBlock walks a paragraph or heading: nested blocks do not split it.
func (c *compiler) textBlock(n *dom.Node) {
	if !c.structural() {
		c.blockChildren(n)
		return
	}
	c.flush()
	c.blocks = append(c.blocks, block{n: n, pathLen: len(c.path)})
	c.flat++
	c.children(n)
	c.flat--
	c.flush()
	c.blocks = c.blocks[:len(c.blocks)-1]
}

// flush turns the pending text run into a paragraph, heading or list
// item, then emits the elements found inline in it.
func (c *compiler) flush() {
	if !c.run.empty() && c.quiet == 0 {
		b := c.blocks[len(c.blocks)-1]
		path := c.path[:b.pathLen]
		switch {
		case isHeadingTag(b.n.Tag) || ariaRole(b.n) == "heading":
			text := c.run.text()
			e := c.newElement(b.n, RoleHeading, text, path)
			e.Text = text
			c.attrs(e).Level = headingLevel(b.n)
			c.emit(e)
		case !c.runLoose:
			// All of it is the text of the links and controls that
			// follow: a paragraph would only repeat them.
		case b.n.Tag == "li" && len(c.pending) == 0 && c.f.list != nil:
			items := &c.blockAttrs(c.f.list).Items
			*items = append(*items, Item{Text: c.run.text()})
		default:
			text := c.run.text()
			e := c.newElement(b.n, RoleParagraph, text, path)
			e.Text = text
			c.emit(e)
		}
	}
	for _, e := range c.pending {
		c.emit(e)
	}
	c.pending = c.pending[:0]
	c.run.reset()
	c.runLoose = false
}

// emit appends an element where elements currently go, opening a content
// region when the page is outside every landmark.
func (c *compiler) emit(e *Element) {
	if c.f.sink == nil {
		if c.content == nil {
			c.content = &Region{Role: RegionContent}
			c.regions = append(c.regions, c.content)
		}
		c.content.Elements = append(c.content.Elements, e)
		return
	}
	*c.f.sink = append(*c.f.sink, e)
}

// newElement makes an element with its id from the spec's hash (the
// collision suffix is added once the whole page is compiled). name is the
// folded accessible name.
func (c *compiler) newElement(n *dom.Node, role, name string, path []int) *Element {
	var id string
	id, c.idBuf = elementID(c.idBuf, c.origin, role, name, path)
	if len(c.elementSlab) == 0 {
		c.elementSlab = make([]Element, slabSize)
	}
	e := &c.elementSlab[0]
	c.elementSlab = c.elementSlab[1:]
	c.created++
	*e = Element{ID: id, Role: role, Node: n}
	return e
}

// slabSize is how many elements (and attrs) are allocated at once: a
// page has hundreds, and one allocation each was a third of the
// compiler's allocations.
const slabSize = 64

// attrs returns the element's attrs, allocating them on first use.
func (c *compiler) attrs(e *Element) *Attrs {
	if e.Attrs == nil {
		if len(c.attrSlab) == 0 {
			c.attrSlab = make([]Attrs, slabSize)
		}
		e.Attrs = &c.attrSlab[0]
		c.attrSlab = c.attrSlab[1:]
	}
	return e.Attrs
}

// ctlAttrs returns the element's control attributes, allocating them
// on first use.
func (c *compiler) ctlAttrs(e *Element) *ControlAttrs {
	a := c.attrs(e)
	if a.ControlAttrs == nil {
		a.ControlAttrs = &ControlAttrs{}
	}
	return a.ControlAttrs
}

// blockAttrs returns the element's list, table or section attributes,
// allocating them on first use.
func (c *compiler) blockAttrs(e *Element) *BlockAttrs {
	a := c.attrs(e)
	if a.BlockAttrs == nil {
		a.BlockAttrs = &BlockAttrs{}
	}
	return a.BlockAttrs
}

func (c *compiler) region(n *dom.Node, role string) {
	c.flush()
	r := &Region{Role: role, Node: n, Label: c.ariaLabel(n), Elements: []*Element{}}
	if n.Tag == "form" || role == RegionForm {
		if r.Label == "" {
			r.Label = c.formLabel(n)
		}
		if n.Tag == "form" {
			r.Action = c.formAction(n)
			r.Method = formMethod(n)
			c.formRegions[n] = r
		}
	}
	c.regions = append(c.regions, r)
	saved := c.f
	c.f = frame{sink: &r.Elements}
	c.regionStack = append(c.regionStack, r)
	sectioning := role == RegionMain || role == RegionNavigation || role == RegionAside
	if sectioning {
		c.sectioning++
	}
	c.blocks = append(c.blocks, block{n: n, pathLen: len(c.path)})
	c.children(n)
	c.flush()
	c.blocks = c.blocks[:len(c.blocks)-1]
	if sectioning {
		c.sectioning--
	}
	c.regionStack = c.regionStack[:len(c.regionStack)-1]
	c.f = saved
	if len(c.regionStack) == 0 {
		c.content = nil
	}
	if role == RegionForm && !hasInteractive(r.Elements) {
		// A form with nothing to fill in or press is just content.
		c.dropped[r] = true
		for _, e := range r.Elements {
			c.emit(e)
		}
	}
}

func hasInteractive(els []*Element) bool {
	for _, e := range els {
		if e.Interactive() || hasInteractive(e.Children) {
			return true
		}
	}
	return false
}

func (c *compiler) inRegion(role string) bool {
	for _, r := range c.regionStack {
		if r.Role == role {
			return true
		}
	}
	return false
}

// container opens an element whose content becomes its children.
// It returns false when nesting is too deep: the content then stays flat.
func (c *compiler) container(e *Element, n *dom.Node, list bool, walk func()) bool {
	if c.f.depth >= maxNesting {
		return false
	}
	c.flush()
	saved := c.f
	c.f = frame{sink: &e.Children, depth: saved.depth + 1}
	if list {
		c.f.list = e
	}
	c.blocks = append(c.blocks, block{n: n, pathLen: len(c.path)})
	walk()
	c.flush()
	c.blocks = c.blocks[:len(c.blocks)-1]
	c.f = saved
	return true
}

func (c *compiler) list(n *dom.Node) {
	if !c.structural() {
		c.blockChildren(n)
		return
	}
	e := c.newElement(n, RoleList, "", c.path)
	if n.Tag == "ol" {
		c.blockAttrs(e).Ordered = true
	}
	if !c.container(e, n, true, func() { c.children(n) }) {
		c.blockChildren(n)
		return
	}
	if len(e.Children) > 0 || (e.Attrs != nil && e.Attrs.BlockAttrs != nil && len(e.Attrs.Items) > 0) {
		c.emit(e)
	}
}

func (c *compiler) section(n *dom.Node) {
	c.sectioning++
	defer func() { c.sectioning-- }()
	if !c.structural() {
		c.blockChildren(n)
		return
	}
	e := c.newElement(n, RoleSection, "", c.path)
	if l := c.ariaLabel(n); l != "" {
		c.blockAttrs(e).SectionLabel = l
	}
	if !c.container(e, n, false, func() { c.children(n) }) {
		c.blockChildren(n)
		return
	}
	if len(e.Children) > 0 {
		c.emit(e)
	}
}

func (c *compiler) table(n *dom.Node) {
	if !c.structural() || !dataTable(n) {
		c.blockChildren(n)
		return
	}
	e := c.newElement(n, RoleTable, "", c.path)
	c.tableContent(e, n)
	if l := c.ariaLabel(n); l != "" {
		e.Label = l
	} else if cap := n.Find(func(x *dom.Node) bool { return x.IsElement("caption") }); cap != nil {
		e.Label = c.textOf(cap)
	}
	ok := c.container(e, n, false, func() {
		c.quiet++
		c.children(n)
		c.quiet--
	})
	if !ok {
		c.quiet++
		c.children(n)
		c.quiet--
	}
	if len(e.Children) > 0 || (e.Attrs != nil && e.Attrs.BlockAttrs != nil && (len(e.Attrs.Rows) > 0 || len(e.Attrs.Headers) > 0)) {
		c.emit(e)
	}
}

// label walks a <label>: when it names a control, its text is the
// control's label and not a paragraph of its own.
func (c *compiler) label(n *dom.Node) {
	if !c.labelsControl(n) {
		c.children(n)
		return
	}
	c.quiet++
	c.children(n)
	c.quiet--
}

// foreign handles SVG and MathML: only an <svg role=img> with a name
// becomes an element.
func (c *compiler) foreign(n *dom.Node) {
	if n.Tag != "svg" || hidden(n) || c.inline > 0 || c.quiet > 0 || ariaRole(n) != "img" {
		return
	}
	name := c.svgName(n)
	if name == "" {
		return
	}
	e := c.newElement(n, RoleImage, name, c.path)
	c.attrs(e).Alt = name
	c.pending = append(c.pending, e)
}

func (c *compiler) svgName(n *dom.Node) string {
	if l := c.ariaLabel(n); l != "" {
		return l
	}
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		if ch.Type == dom.Element && ch.Tag == "title" {
			return c.textOf(ch)
		}
	}
	return ""
}

func isHeadingTag(tag string) bool {
	return len(tag) == 2 && tag[0] == 'h' && tag[1] >= '1' && tag[1] <= '6'
}

func headingLevel(n *dom.Node) int {
	if v, ok := n.Attr("aria-level"); ok {
		if l, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && l >= 1 && l <= 6 {
			return l
		}
	}
	if isHeadingTag(n.Tag) {
		return int(n.Tag[1] - '0')
	}
	return 2
}

// finish drops empty regions, numbers regions, makes element ids unique
// in document order and counts the elements into meta.
func (c *compiler) finish(meta *Meta) []*Region {
	out := make([]*Region, 0, len(c.regions))
	roles := map[string]int{}
	ids := make(idAllocator, c.created)
	for _, r := range c.regions {
		if c.dropped[r] || len(r.Elements) == 0 {
			continue
		}
		roles[r.Role]++
		r.ID = "r_" + r.Role
		if k := roles[r.Role]; k > 1 {
			r.ID += "_" + strconv.Itoa(k)
		}
		out = append(out, r)
	}
	for _, r := range out {
		var walk func([]*Element)
		walk = func(els []*Element) {
			for _, e := range els {
				e.ID = ids.unique(e.ID)
				meta.ElementCount++
				if e.Interactive() {
					meta.InteractiveCount++
				}
				if e.Attrs != nil && e.Attrs.formNode != nil {
					if fr := c.formRegions[e.Attrs.formNode]; fr != nil && fr != r && !c.dropped[fr] {
						c.ctlAttrs(e).FormID = fr.ID
					}
				}
				walk(e.Children)
			}
		}
		walk(r.Elements)
	}
	return out
}
