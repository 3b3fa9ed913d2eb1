package som

import (
	"strings"
	"unicode/utf8"

	"github.com/plasmate/plasmate/domain/dom"
)

// scanned is what a first walk over the body learns before compiling:
// ids for aria-labelledby and label[for], which landmarks the page has,
// which elements the class/id heuristics would make regions, and the
// largest content block.
type scanned struct {
	byID     map[string]*dom.Node
	labelFor map[string]*dom.Node
	// landmarks holds the region roles some real landmark gives the page.
	landmarks map[string]bool
	// hints maps elements whose class or id names a region role.
	hints map[*dom.Node]string
	// linkLists are lists made (almost) only of links, for the "link list
	// in the header is navigation" heuristic.
	linkLists map[*dom.Node]bool
	mainBlock *dom.Node
	score     map[*dom.Node]int
	// bodyTitle and bodyBase are the first <title> and <base href> found
	// in the body, for pages that put them there.
	bodyTitle, bodyBase *dom.Node
}

// minMainScore is how much paragraph text a block needs to be taken for
// the page's main content.
const minMainScore = 200

// ariaRegions maps ARIA landmark roles to region roles.
var ariaRegions = map[string]string{
	"navigation":    RegionNavigation,
	"main":          RegionMain,
	"complementary": RegionAside,
	"banner":        RegionHeader,
	"contentinfo":   RegionFooter,
	"form":          RegionForm,
	"search":        RegionForm,
	"dialog":        RegionDialog,
	"alertdialog":   RegionDialog,
}

// tagRegion is the region an HTML element opens by its tag: header and
// footer only at page level (outside article, section, aside, main, nav).
func tagRegion(tag string, sectioning int) string {
	switch tag {
	case "nav":
		return RegionNavigation
	case "main":
		return RegionMain
	case "aside":
		return RegionAside
	case "header":
		if sectioning == 0 {
			return RegionHeader
		}
	case "footer":
		if sectioning == 0 {
			return RegionFooter
		}
	case "form":
		return RegionForm
	case "dialog":
		return RegionDialog
	}
	return ""
}

// regionRole is the region an element opens, or "": its ARIA role, else
// its tag, else the heuristics.
func (c *compiler) regionRole(n *dom.Node, role string) string {
	if r := ariaRegions[role]; r != "" {
		return r
	}
	switch role {
	case "", "region", "group", "presentation", "none", "generic":
	default:
		return "" // another explicit role: not a landmark
	}
	if r := tagRegion(n.Tag, c.sectioning); r != "" {
		if (r == RegionHeader || r == RegionFooter) && c.inRegion(r) {
			return ""
		}
		return r
	}
	if h := c.hints[n]; h != "" && !c.inRegion(h) {
		return h
	}
	if c.linkLists[n] && !c.landmarks[RegionNavigation] && c.inRegion(RegionHeader) && !c.inRegion(RegionNavigation) {
		return RegionNavigation
	}
	if n == c.mainBlock && !c.inRegion(RegionMain) {
		return RegionMain
	}
	return ""
}

// landmarkRole is the region a real landmark gives the page, for the
// scan: forms and dialogs are not landmarks the heuristics yield to.
func landmarkRole(n *dom.Node, sectioning int) string {
	r := ariaRegions[ariaRole(n)]
	if r == "" {
		r = tagRegion(n.Tag, sectioning)
	}
	if r == RegionForm || r == RegionDialog {
		return ""
	}
	return r
}

// hintRole is the region role an element's class or id names.
func hintRole(n *dom.Node) string {
	switch n.Tag {
	case "div", "ul", "ol", "section", "td", "table", "center", "dl":
	default:
		return ""
	}
	id, cls := n.AttrOr("id"), n.AttrOr("class")
	if !mayHint(id) && !mayHint(cls) {
		return ""
	}
	id, cls = strings.ToLower(id), strings.ToLower(cls)
	if id == "header" || id == "site-header" || id == "page-header" {
		return RegionHeader
	}
	role := ""
	for _, tok := range append(strings.Fields(cls), id) {
		switch tok {
		case "header", "site-header", "page-header", "global-header":
			role = RegionHeader
		}
		for w := range strings.FieldsFuncSeq(tok, func(r rune) bool { return r == '-' || r == '_' }) {
			switch w {
			case "nav", "navbar", "navigation", "menu", "menubar", "topnav", "mainnav", "navlinks":
				return RegionNavigation
			case "sidebar", "aside":
				return RegionAside
			case "footer":
				return RegionFooter
			case "masthead":
				return RegionHeader
			}
		}
	}
	return role
}

// mayHint is a quick test that s could hold a hint word: every word
// hintRole looks for contains one of these letter pairs.
func mayHint(s string) bool {
	if s == "" {
		return false
	}
	s = strings.ToLower(s)
	return strings.Contains(s, "nav") || strings.Contains(s, "menu") || strings.Contains(s, "side") ||
		strings.Contains(s, "aside") || strings.Contains(s, "foot") || strings.Contains(s, "head") ||
		strings.Contains(s, "mast")
}

// scan is the first walk over the body.
func (c *compiler) scan(body *dom.Node) {
	c.byID = map[string]*dom.Node{}
	c.labelFor = map[string]*dom.Node{}
	c.landmarks = map[string]bool{}
	c.hints = map[*dom.Node]string{}
	c.linkLists = map[*dom.Node]bool{}
	c.score = map[*dom.Node]int{}
	var candidates []hintCandidate
	c.scanNode(body, 0, false, &candidates)
	for _, h := range candidates {
		if c.landmarks[h.role] {
			continue
		}
		if h.role == RegionNavigation && h.links < 2 {
			continue
		}
		c.hints[h.n] = h.role
	}
	if c.landmarks[RegionMain] || (len(c.landmarks) == 0 && len(c.hints) == 0) {
		// No main heuristic on a page with no regions at all: the whole
		// body is then one content region, as the spec says.
		return
	}
	best := 0
	for n, s := range c.score {
		// Ties go to the earlier element, so map order cannot change
		// the result between runs.
		if n != body && (s > best || (s == best && c.mainBlock != nil && n.Index < c.mainBlock.Index)) {
			best, c.mainBlock = s, n
		}
	}
	if best < minMainScore {
		c.mainBlock = nil
	}
}

type hintCandidate struct {
	n     *dom.Node
	role  string
	links int
}

// scanNode returns the text length and link count of n's subtree.
// inLandmark is set inside navigation-like regions, whose text does not
// count toward the main content.
func (c *compiler) scanNode(n *dom.Node, sectioning int, inLandmark bool, hints *[]hintCandidate) (textLen, links, linkText int) {
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		switch ch.Type {
		case dom.Text:
			l := visibleLen(ch.Data)
			textLen += l
			if l > 25 && !inLandmark && n.Tag == "div" {
				c.score[n] += l
			}
		case dom.Element:
			if ch.Foreign {
				continue
			}
			if ch.Tag == "title" && c.bodyTitle == nil {
				c.bodyTitle = ch
			} else if c.bodyBase == nil && isBase(ch) {
				c.bodyBase = ch
			}
			if omitted(ch.Tag) || hidden(ch) {
				continue
			}
			if id := ch.AttrOr("id"); id != "" {
				if _, dup := c.byID[id]; !dup {
					c.byID[id] = ch
				}
			}
			if ch.Tag == "label" {
				if f := ch.AttrOr("for"); f != "" {
					if _, dup := c.labelFor[f]; !dup {
						c.labelFor[f] = ch
					}
				}
			}
			lm := landmarkRole(ch, sectioning)
			if lm != "" {
				c.landmarks[lm] = true
			}
			hint := ""
			if lm == "" {
				hint = hintRole(ch)
			}
			sec := sectioning
			switch ch.Tag {
			case "article", "section", "aside", "main", "nav":
				sec++
			}
			skipMain := inLandmark || (lm != "" && lm != RegionMain) || hint != "" || ch.Tag == "form"
			t, l, lt := c.scanNode(ch, sec, skipMain, hints)
			if ch.Tag == "a" && ch.Has("href") {
				l++
				lt = t
			}
			if hint != "" {
				*hints = append(*hints, hintCandidate{n: ch, role: hint, links: l})
			}
			if (ch.Tag == "ul" || ch.Tag == "ol") && l >= 2 && lt*10 >= t*8 {
				c.linkLists[ch] = true
			}
			if !skipMain && t > 25 {
				switch ch.Tag {
				case "p", "pre", "blockquote":
					c.score[n] += t
					if n.Parent != nil {
						c.score[n.Parent] += t / 2
					}
				}
			}
			textLen += t
			links += l
			linkText += lt
		}
	}
	return textLen, links, linkText
}

// dataTable tells a table of data from a layout table: data tables have
// headers or a caption (or say so with a role) and no nested tables.
func dataTable(n *dom.Node) bool {
	switch ariaRole(n) {
	case "presentation", "none":
		return false
	case "table", "grid", "treegrid":
		return true
	}
	data := false
	nested := false
	var walk func(*dom.Node)
	walk = func(p *dom.Node) {
		for ch := p.FirstChild; ch != nil && !nested; ch = ch.NextSibling {
			if ch.Type != dom.Element || ch.Foreign {
				continue
			}
			switch ch.Tag {
			case "table":
				nested = true
				return
			case "caption", "thead", "th":
				data = true
			}
			walk(ch)
		}
	}
	walk(n)
	return data && !nested
}

// maxTableRows is the spec's cap on the rows a table element lists.
const maxTableRows = 20

// tableContent fills a data table's headers and rows from its cells.
func (c *compiler) tableContent(e *Element, n *dom.Node) {
	var rows []*dom.Node
	var collect func(*dom.Node)
	collect = func(p *dom.Node) {
		for ch := p.FirstChild; ch != nil; ch = ch.NextSibling {
			if ch.Type != dom.Element || ch.Foreign || hidden(ch) {
				continue
			}
			switch ch.Tag {
			case "tr":
				rows = append(rows, ch)
			case "thead", "tbody", "tfoot":
				collect(ch)
			}
		}
	}
	collect(n)
	a := c.blockAttrs(e)
	total := 0
	for i, tr := range rows {
		var cells []string
		allTH := true
		for td := tr.FirstChild; td != nil; td = td.NextSibling {
			if td.Type != dom.Element || (td.Tag != "td" && td.Tag != "th") || hidden(td) {
				continue
			}
			allTH = allTH && td.Tag == "th"
			cells = append(cells, c.textOf(td))
		}
		if len(cells) == 0 {
			continue
		}
		if i == 0 && (allTH || tr.Parent.Tag == "thead") {
			a.Headers = cells
			continue
		}
		empty := true
		for _, s := range cells {
			empty = empty && s == ""
		}
		if empty {
			continue
		}
		total++
		if len(a.Rows) < maxTableRows {
			a.Rows = append(a.Rows, cells)
		}
	}
	if total > maxTableRows {
		a.RowCount = total
	}
	if a.empty() {
		e.Attrs.BlockAttrs = nil
	}
	if e.Attrs.empty() {
		e.Attrs = nil
	}
}

// visibleLen approximates the folded length of a text node for the
// scan's scoring: its length, or 0 when it is only white space (the
// common text node between tags).
func visibleLen(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || !asciiSpace[c] {
			return len(s)
		}
	}
	return 0
}
