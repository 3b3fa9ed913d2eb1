// Package som holds the Semantic Object Model of AWP v0.1 and the compiler
// that builds it from a parsed document.
//
// A SOM is what an agent reads instead of HTML: regions (navigation, main,
// forms, ...) holding elements (links, buttons, inputs, headings, text)
// with stable ids the agent acts on. The compiler is pure: it reads a
// dom tree and returns data, with no I/O.
package som

import (
	"bytes"
	"strconv"

	"github.com/plasmate/plasmate/domain/dom"
)

// Version is the SOM schema version this package produces.
const Version = "0.1"

// Region roles.
const (
	RegionNavigation = "navigation"
	RegionMain       = "main"
	RegionAside      = "aside"
	RegionHeader     = "header"
	RegionFooter     = "footer"
	RegionForm       = "form"
	RegionDialog     = "dialog"
	RegionContent    = "content"
)

// Element roles.
const (
	RoleLink      = "link"
	RoleButton    = "button"
	RoleTextInput = "text_input"
	RoleTextarea  = "textarea"
	RoleSelect    = "select"
	RoleCheckbox  = "checkbox"
	RoleRadio     = "radio"
	RoleHeading   = "heading"
	RoleImage     = "image"
	RoleList      = "list"
	RoleTable     = "table"
	RoleParagraph = "paragraph"
	RoleSection   = "section"
	RoleSeparator = "separator"
)

// Actions.
const (
	ActClick  = "click"
	ActType   = "type"
	ActClear  = "clear"
	ActSelect = "select"
	ActToggle = "toggle"
)

// actionsByRole are shared, read-only slices: elements point at them
// rather than allocating their own.
var actionsByRole = map[string][]string{
	RoleLink:      {ActClick},
	RoleButton:    {ActClick},
	RoleTextInput: {ActType, ActClear},
	RoleTextarea:  {ActType, ActClear},
	RoleSelect:    {ActSelect},
	RoleCheckbox:  {ActToggle},
	RoleRadio:     {ActSelect},
}

// SOM is a compiled page.
type SOM struct {
	SOMVersion string    `json:"som_version"`
	URL        string    `json:"url"`
	Title      string    `json:"title"`
	Lang       string    `json:"lang"`
	Regions    []*Region `json:"regions"`
	Meta       Meta      `json:"meta"`
}

// Meta carries the page's size figures.
type Meta struct {
	HTMLBytes        int `json:"html_bytes"`
	SOMBytes         int `json:"som_bytes"`
	ElementCount     int `json:"element_count"`
	InteractiveCount int `json:"interactive_count"`
}

// Region is a top-level semantic area of the page.
type Region struct {
	ID    string `json:"id"`
	Role  string `json:"role"`
	Label string `json:"label,omitempty"`
	// Action and Method are set on form regions only.
	Action   string     `json:"action,omitempty"`
	Method   string     `json:"method,omitempty"`
	Elements []*Element `json:"elements"`

	// Node is the element the region was built from (nil for the content
	// fallback), kept so that acting on a form can find its controls.
	Node *dom.Node `json:"-"`
}

// Element is one thing on the page an agent can read or act on.
type Element struct {
	ID       string     `json:"id"`
	Role     string     `json:"role"`
	Text     string     `json:"text,omitempty"`
	Label    string     `json:"label,omitempty"`
	Actions  []string   `json:"actions,omitempty"`
	Attrs    *Attrs     `json:"attrs,omitempty"`
	Children []*Element `json:"children,omitempty"`

	// Node is the DOM node the element was built from.
	Node *dom.Node `json:"-"`
}

// Attrs are the role-specific attributes of an element. Absent values
// are left out of the JSON rather than written empty. The attributes of
// form controls and of lists, tables and sections sit behind pointers,
// set only for those roles: most elements are links, images and headings,
// and should not carry the rest.
type Attrs struct {
	Href  string `json:"href,omitempty"`
	Level int    `json:"level,omitempty"`
	Alt   string `json:"alt,omitempty"`
	Src   string `json:"src,omitempty"`
	*ControlAttrs
	*BlockAttrs
	TestID string `json:"testid,omitempty"`

	// formNode is the <form> a button names with its form attribute;
	// FormID is filled from it once region ids are known.
	formNode *dom.Node
}

// ControlAttrs are the attributes of buttons and form controls.
type ControlAttrs struct {
	InputType   string   `json:"input_type,omitempty"`
	Placeholder string   `json:"placeholder,omitempty"`
	Value       string   `json:"value,omitempty"`
	Checked     bool     `json:"checked,omitempty"`
	Group       string   `json:"group,omitempty"`
	Required    bool     `json:"required,omitempty"`
	Disabled    bool     `json:"disabled,omitempty"`
	Multiple    bool     `json:"multiple,omitempty"`
	FormID      string   `json:"form_id,omitempty"`
	Options     []Option `json:"options,omitempty"`
}

// BlockAttrs are the attributes of lists, tables and sections.
type BlockAttrs struct {
	Ordered      bool       `json:"ordered,omitempty"`
	Items        []Item     `json:"items,omitempty"`
	Headers      []string   `json:"headers,omitempty"`
	Rows         [][]string `json:"rows,omitempty"`
	RowCount     int        `json:"row_count,omitempty"`
	SectionLabel string     `json:"section_label,omitempty"`
}

// Option is one choice of a select.
type Option struct {
	Value    string `json:"value"`
	Text     string `json:"text"`
	Selected bool   `json:"selected"`
}

// Item is one plain-text list item.
type Item struct {
	Text string `json:"text"`
}

// Interactive reports whether the element carries actions.
func (e *Element) Interactive() bool { return len(e.Actions) > 0 }

// Walk calls fn for every element of the SOM in document order, children
// after their parent. It stops early when fn returns false.
func (s *SOM) Walk(fn func(r *Region, e *Element) bool) {
	var walk func(r *Region, els []*Element) bool
	walk = func(r *Region, els []*Element) bool {
		for _, e := range els {
			if !fn(r, e) || !walk(r, e.Children) {
				return false
			}
		}
		return true
	}
	for _, r := range s.Regions {
		if !walk(r, r.Elements) {
			return
		}
	}
}

// MarshalCompact returns the SOM as compact JSON, the bytes page.observe
// sends, with Meta.SOMBytes set to their exact length. HTML characters
// are not escaped: \u003c costs an agent six characters for one.
func (s *SOM) MarshalCompact() ([]byte, error) {
	// som_bytes is part of the bytes it measures: encode with 0, then
	// put in the length whose digit count makes itself true. Meta comes
	// last, so the last "som_bytes":0 is the one to replace (a key cannot
	// occur inside a string: its quotes would be escaped), and only the
	// short tail after it moves.
	s.Meta.SOMBytes = 0
	b := appendSOM(make([]byte, 0, 512+192*s.Meta.ElementCount), s)
	const key = `"som_bytes":0`
	at := bytes.LastIndex(b, []byte(key)) + len(key) - 1
	base := len(b) - 1
	n := base + 1
	for n != base+len(strconv.Itoa(n)) {
		n = base + len(strconv.Itoa(n))
	}
	s.Meta.SOMBytes = n
	digits := strconv.Itoa(n)
	tail := string(b[at+1:])
	b = append(b[:at], digits...)
	return append(b, tail...), nil
}

// empty reports whether no attribute is set.
func (a *Attrs) empty() bool {
	return a.Href == "" && a.Level == 0 && a.Alt == "" && a.Src == "" && a.TestID == "" &&
		a.formNode == nil && (a.ControlAttrs == nil || a.ControlAttrs.empty()) &&
		(a.BlockAttrs == nil || a.BlockAttrs.empty())
}

func (c *ControlAttrs) empty() bool {
	return c.InputType == "" && c.Placeholder == "" && c.Value == "" && !c.Checked && c.Group == "" &&
		!c.Required && !c.Disabled && !c.Multiple && c.FormID == "" && len(c.Options) == 0
}

func (b *BlockAttrs) empty() bool {
	return !b.Ordered && len(b.Items) == 0 && len(b.Headers) == 0 && len(b.Rows) == 0 && b.RowCount == 0 && b.SectionLabel == ""
}
