package som_test

import (
	"testing"
)

// ruleCase is one rule of the spec: an HTML snippet and the regions it
// must compile to (element ids blanked; they have tests of their own).
type ruleCase struct {
	name string
	html string
	want string
}

func runRules(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := normalize(t, regionsJSON(t, compile(t, tc.html, testURL)))
			want := canonical(t, tc.want)
			if got != want {
				t.Errorf("Compile(%q) regions =\n%s\nwant\n%s", tc.html, got, want)
			}
		})
	}
}

const (
	linkA = `{"role":"link","text":"A","actions":["click"],"attrs":{"href":"/a"}}`
	linkB = `{"role":"link","text":"B","actions":["click"],"attrs":{"href":"/b"}}`
	paraX = `{"role":"paragraph","text":"x"}`
)

func TestRegions(t *testing.T) {
	runRules(t, []ruleCase{
		{"no landmarks: one content region", `<p>x</p>`,
			`[{"id":"r_content","role":"content","elements":[` + paraX + `]}]`},
		{"nav element", `<nav><a href="/a">A</a></nav>`,
			`[{"id":"r_navigation","role":"navigation","elements":[` + linkA + `]}]`},
		{"role=navigation", `<div role="navigation"><a href="/a">A</a></div>`,
			`[{"id":"r_navigation","role":"navigation","elements":[` + linkA + `]}]`},
		{"main element", `<main><p>x</p></main>`,
			`[{"id":"r_main","role":"main","elements":[` + paraX + `]}]`},
		{"role=main", `<div role="main"><p>x</p></div>`,
			`[{"id":"r_main","role":"main","elements":[` + paraX + `]}]`},
		{"aside and role=complementary", `<aside><p>x</p></aside><div role="complementary"><p>x</p></div>`,
			`[{"id":"r_aside","role":"aside","elements":[` + paraX + `]},{"id":"r_aside_2","role":"aside","elements":[` + paraX + `]}]`},
		{"page header and role=banner", `<header><p>x</p></header><div role="banner"><p>x</p></div>`,
			`[{"id":"r_header","role":"header","elements":[` + paraX + `]},{"id":"r_header_2","role":"header","elements":[` + paraX + `]}]`},
		{"header inside article is not a region", `<article><header><p>x</p></header></article>`,
			`[{"id":"r_content","role":"content","elements":[{"role":"section","children":[` + paraX + `]}]}]`},
		{"page footer and role=contentinfo", `<footer><p>x</p></footer><div role="contentinfo"><p>x</p></div>`,
			`[{"id":"r_footer","role":"footer","elements":[` + paraX + `]},{"id":"r_footer_2","role":"footer","elements":[` + paraX + `]}]`},
		{"footer inside section is not a region", `<section><footer><p>x</p></footer></section>`,
			`[{"id":"r_content","role":"content","elements":[{"role":"section","children":[` + paraX + `]}]}]`},
		{"open dialog and role=alertdialog", `<dialog open><p>x</p></dialog><div role="alertdialog"><p>x</p></div>`,
			`[{"id":"r_dialog","role":"dialog","elements":[` + paraX + `]},{"id":"r_dialog_2","role":"dialog","elements":[` + paraX + `]}]`},
		{"closed dialog is hidden", `<dialog><p>secret</p></dialog><p>x</p>`,
			`[{"id":"r_content","role":"content","elements":[` + paraX + `]}]`},
		{"form with controls: label, absolute action, upper-case method",
			`<form aria-label="Login" action="../login" method="post"><input name="u"></form>`,
			`[{"id":"r_form","role":"form","label":"Login","action":"https://example.com/login","method":"POST","elements":[{"role":"text_input","actions":["type","clear"],"attrs":{"input_type":"text"}}]}]`},
		{"form method defaults to GET, empty action is the page",
			`<form><button>Go</button></form>`,
			`[{"id":"r_form","role":"form","action":"` + testURL + `","method":"GET","elements":[{"role":"button","text":"Go","actions":["click"]}]}]`},
		{"form label from legend", `<form action="/s"><fieldset><legend>Search</legend><input name="q"></fieldset></form>`,
			`[{"id":"r_form","role":"form","label":"Search","action":"https://example.com/s","method":"GET","elements":[{"role":"paragraph","text":"Search"},{"role":"text_input","actions":["type","clear"],"attrs":{"input_type":"text"}}]}]`},
		{"form without controls is content", `<form><p>x</p></form>`,
			`[{"id":"r_content","role":"content","elements":[` + paraX + `]}]`},
		{"role=search is a form region", `<div role="search"><input name="q"></div>`,
			`[{"id":"r_form","role":"form","elements":[{"role":"text_input","actions":["type","clear"],"attrs":{"input_type":"text"}}]}]`},
		{"form nested in a landmark is its own region, in document order",
			`<main><p>x</p><form action="/f"><input name="a"></form><p>y</p></main>`,
			`[{"id":"r_main","role":"main","elements":[` + paraX + `,{"role":"paragraph","text":"y"}]},{"id":"r_form","role":"form","action":"https://example.com/f","method":"GET","elements":[{"role":"text_input","actions":["type","clear"],"attrs":{"input_type":"text"}}]}]`},
		{"content outside landmarks around them",
			`<p>x</p><nav><a href="/a">A</a></nav><p>y</p>`,
			`[{"id":"r_content","role":"content","elements":[` + paraX + `]},{"id":"r_navigation","role":"navigation","elements":[` + linkA + `]},{"id":"r_content_2","role":"content","elements":[{"role":"paragraph","text":"y"}]}]`},
		{"region label from aria-labelledby", `<nav aria-labelledby="h"><h2 id="h">Site</h2><a href="/a">A</a></nav>`,
			`[{"id":"r_navigation","role":"navigation","label":"Site","elements":[{"role":"heading","text":"Site","attrs":{"level":2}},` + linkA + `]}]`},
		{"empty landmark is dropped", `<nav></nav><p>x</p>`,
			`[{"id":"r_content","role":"content","elements":[` + paraX + `]}]`},
	})
}

func TestRegionHeuristics(t *testing.T) {
	runRules(t, []ruleCase{
		{"class nav with links is navigation", `<div class="top-nav"><a href="/a">A</a><a href="/b">B</a></div><p>x</p>`,
			`[{"id":"r_navigation","role":"navigation","elements":[` + linkA + `,` + linkB + `]},{"id":"r_content","role":"content","elements":[` + paraX + `]}]`},
		{"class menu needs two links", `<div class="menu"><a href="/a">A</a></div>`,
			`[{"id":"r_content","role":"content","elements":[` + linkA + `]}]`},
		{"id sidebar is aside", `<div id="sidebar"><p>x</p></div>`,
			`[{"id":"r_aside","role":"aside","elements":[` + paraX + `]}]`},
		{"class footer is footer", `<div class="site-footer"><p>x</p></div>`,
			`[{"id":"r_footer","role":"footer","elements":[` + paraX + `]}]`},
		{"id masthead is header", `<div id="masthead"><p>x</p></div>`,
			`[{"id":"r_header","role":"header","elements":[` + paraX + `]}]`},
		{"hints yield to real landmarks", `<nav><a href="/a">A</a></nav><div class="nav"><a href="/a">A</a><a href="/b">B</a></div>`,
			`[{"id":"r_navigation","role":"navigation","elements":[` + linkA + `]},{"id":"r_content","role":"content","elements":[` + linkA + `,` + linkB + `]}]`},
		{"a link list in the header is navigation",
			`<header><p>x</p><ul><li><a href="/a">A</a></li><li><a href="/b">B</a></li></ul></header>`,
			`[{"id":"r_header","role":"header","elements":[` + paraX + `]},{"id":"r_navigation","role":"navigation","elements":[` + linkA + `,` + linkB + `]}]`},
		{"the largest content block is main when the page has other regions",
			`<div id="header"><p>x</p></div><div><div class="story"><p>` + long(120) + `</p><p>` + long(120) + `</p></div></div><div><p>y</p></div>`,
			`[{"id":"r_header","role":"header","elements":[` + paraX + `]},{"id":"r_main","role":"main","elements":[{"role":"paragraph","text":"` + long(120) + `"},{"role":"paragraph","text":"` + long(120) + `"}]},{"id":"r_content","role":"content","elements":[{"role":"paragraph","text":"y"}]}]`},
	})
}

// long is n characters of text.
func long(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = 'a' + byte(i%26)
	}
	return string(b)
}
