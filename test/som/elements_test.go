package som_test

import (
	"strings"
	"testing"
)

// content wraps element JSON in the single content region a page
// without landmarks compiles to.
func content(elements ...string) string {
	return `[{"id":"r_content","role":"content","elements":[` + strings.Join(elements, ",") + `]}]`
}

func TestElementRoles(t *testing.T) {
	runRules(t, []ruleCase{
		{"link: href as written", `<a href=" /a ">A</a>`, content(linkA)},
		{"link: role=link", `<span role="link">A</span>`, content(`{"role":"link","text":"A","actions":["click"]}`)},
		{"link: aria-label is a label", `<a href="/a" aria-label="Go to A">A</a>`,
			content(`{"role":"link","text":"A","label":"Go to A","actions":["click"],"attrs":{"href":"/a"}}`)},
		{"link: title names only an empty link", `<a href="/a" title="tip">A</a><a href="/b" title="Home"><i></i></a>`,
			content(linkA, `{"role":"link","label":"Home","actions":["click"],"attrs":{"href":"/b"}}`)},
		{"link: image alt is its text", `<a href="/a"><img src="a.png" alt="A"></a>`, content(linkA)},
		{"link: without href is text", `<a name="x">x</a>`, content(paraX)},
		{"link: base href honoured", `<head><base href="https://cdn.example.org/root/"></head><a href="a">A</a><a href="https://x.org/">X</a>`,
			content(`{"role":"link","text":"A","actions":["click"],"attrs":{"href":"https://cdn.example.org/root/a"}}`,
				`{"role":"link","text":"X","actions":["click"],"attrs":{"href":"https://x.org/"}}`)},
		{"link: a base element in the body counts too", `<body><base href="https://cdn.example.org/root/"><a href="a">A</a>`,
			content(`{"role":"link","text":"A","actions":["click"],"attrs":{"href":"https://cdn.example.org/root/a"}}`)},
		{"button element", `<button>Go</button>`, content(`{"role":"button","text":"Go","actions":["click"]}`)},
		{"button: input submit, reset, button, image", `<input type="submit"><input type="reset"><input type="button" value="Do"><input type="image" alt="Send" src="s.png">`,
			content(`{"role":"button","text":"Submit","actions":["click"]}`, `{"role":"button","text":"Reset","actions":["click"]}`,
				`{"role":"button","text":"Do","actions":["click"]}`, `{"role":"button","text":"Send","actions":["click"]}`)},
		{"button: role=button and disabled", `<div role="button">Open</div><button disabled>No</button>`,
			content(`{"role":"button","text":"Open","actions":["click"]}`, `{"role":"button","text":"No","actions":["click"],"attrs":{"disabled":true}}`)},
		{"button: form_id for a button outside its form",
			`<form id="f" action="/f"><input name="q"></form><button form="f">Go</button>`,
			`[{"id":"r_form","role":"form","action":"https://example.com/f","method":"GET","elements":[{"role":"text_input","actions":["type","clear"],"attrs":{"input_type":"text"}}]},` +
				`{"id":"r_content","role":"content","elements":[{"role":"button","text":"Go","actions":["click"],"attrs":{"form_id":"r_form"}}]}]`},
		{"text_input: types, placeholder, value, required, disabled",
			`<input type="email" placeholder="you@x" value="me@x" required><input type="NUMBER" disabled><input><input type="weird">`,
			content(`{"role":"text_input","label":"you@x","actions":["type","clear"],"attrs":{"input_type":"email","placeholder":"you@x","value":"me@x","required":true}}`,
				`{"role":"text_input","actions":["type","clear"],"attrs":{"input_type":"number","disabled":true}}`,
				`{"role":"text_input","actions":["type","clear"],"attrs":{"input_type":"text"}}`,
				`{"role":"text_input","actions":["type","clear"],"attrs":{"input_type":"text"}}`)},
		{"hidden input is never an element", `<input type="hidden" name="csrf" value="t"><p>x</p>`, content(paraX)},
		{"textarea", `<textarea placeholder="Say" required>hi
there</textarea>`, content(`{"role":"textarea","label":"Say","actions":["type","clear"],"attrs":{"placeholder":"Say","value":"hi\nthere","required":true}}`)},
		{"select: options, first selected by default", `<select name="s"><option value="1">One</option><optgroup><option>Two</option></optgroup></select>`,
			content(`{"role":"select","actions":["select"],"attrs":{"options":[{"value":"1","text":"One","selected":true},{"value":"Two","text":"Two","selected":false}]}}`)},
		{"select: multiple and required", `<select multiple required><option>A</option><option selected>B</option></select>`,
			content(`{"role":"select","actions":["select"],"attrs":{"options":[{"value":"A","text":"A","selected":false},{"value":"B","text":"B","selected":true}],"multiple":true,"required":true}}`)},
		{"checkbox and role=checkbox", `<input type="checkbox" checked><div role="checkbox" aria-checked="true">X</div>`,
			content(`{"role":"checkbox","actions":["toggle"],"attrs":{"checked":true}}`, `{"role":"checkbox","actions":["toggle"],"attrs":{"checked":true}}`)},
		{"radio with group", `<input type="radio" name="g" value="1" checked><input type="radio" name="g" disabled>`,
			content(`{"role":"radio","actions":["select"],"attrs":{"checked":true,"group":"g"}}`, `{"role":"radio","actions":["select"],"attrs":{"group":"g","disabled":true}}`)},
		{"disabled fieldset disables its controls", `<fieldset disabled><input type="checkbox"></fieldset>`,
			content(`{"role":"checkbox","actions":["toggle"],"attrs":{"disabled":true}}`)},
		{"heading levels", `<h1>T</h1><h6>S</h6><div role="heading" aria-level="3">R</div>`,
			content(`{"role":"heading","text":"T","attrs":{"level":1}}`, `{"role":"heading","text":"S","attrs":{"level":6}}`, `{"role":"heading","text":"R","attrs":{"level":3}}`)},
		{"heading with a link", `<h2><a href="/a">A</a></h2>`,
			content(`{"role":"heading","text":"A","attrs":{"level":2}}`, linkA)},
		{"image: alt and src", `<img src="/c.png" alt="Cat">`, content(`{"role":"image","attrs":{"alt":"Cat","src":"/c.png"}}`)},
		{"image: decorative images are out", `<img src="a.png" alt=""><img src="b.png" role="presentation"><img src="t.gif" width="1" height="1"><p>x</p>`, content(paraX)},
		{"image: lazy data-src instead of a data: URI", `<img src="data:image/gif;base64,R0lG" data-src="/real.jpg" alt="R">`,
			content(`{"role":"image","attrs":{"alt":"R","src":"/real.jpg"}}`)},
		{"image: picture and role=img", `<picture><source srcset="a.webp"><img src="a.jpg" alt="A"></picture><span role="img" aria-label="Stars"></span>`,
			content(`{"role":"image","attrs":{"alt":"A","src":"a.jpg"}}`, `{"role":"image","attrs":{"alt":"Stars"}}`)},
		{"image: svg with role=img and a name; other svg is omitted",
			`<svg role="img" aria-label="Logo"><circle r="1"/><text>no</text></svg><svg><text>no</text></svg><p>x</p>`,
			content(`{"role":"image","attrs":{"alt":"Logo"}}`, paraX)},
		{"list: items of plain text", `<ol><li>one</li><li> two </li></ol>`,
			content(`{"role":"list","attrs":{"ordered":true,"items":[{"text":"one"},{"text":"two"}]}}`)},
		{"list: a list of links has link children", `<ul><li><a href="/a">A</a></li><li><a href="/b">B</a></li></ul>`,
			content(`{"role":"list","children":[` + linkA + `,` + linkB + `]}`)},
		{"table: headers, rows and links in cells",
			`<table><thead><tr><th>N</th><th>V</th></tr></thead><tr><td>a</td><td><a href="/a">A</a></td></tr></table>`,
			content(`{"role":"table","attrs":{"headers":["N","V"],"rows":[["a","A"]]},"children":[` + linkA + `]}`)},
		{"table: layout tables are looked through", `<table><tr><td><p>x</p></td><td><a href="/a">A</a></td></tr></table>`,
			content(paraX, linkA)},
		{"table: caption is the label", `<table><caption>Prices</caption><tr><th>a</th></tr><tr><td>1</td></tr></table>`,
			content(`{"role":"table","label":"Prices","attrs":{"headers":["a"],"rows":[["1"]]}}`)},
		{"paragraph and bare text block", `<p>x</p><div>y <b>z</b></div>`,
			content(paraX, `{"role":"paragraph","text":"y z"}`)},
		{"section and article with section_label", `<section aria-label="News"><p>x</p></section><article><p>y</p></article>`,
			content(`{"role":"section","attrs":{"section_label":"News"},"children":[`+paraX+`]}`, `{"role":"section","children":[{"role":"paragraph","text":"y"}]}`)},
		{"separator", `<p>x</p><hr><p>y</p>`, content(paraX, `{"role":"separator"}`, `{"role":"paragraph","text":"y"}`)},
		{"data-testid is kept", `<button data-testid="buy" data-track="x" class="btn" style="color:red">Buy</button>`,
			content(`{"role":"button","text":"Buy","actions":["click"],"attrs":{"testid":"buy"}}`)},
		{"paragraph text keeps inline link text, link follows", `<p>Read the <a href="/a">A</a> docs.</p>`,
			content(`{"role":"paragraph","text":"Read the A docs."}`, linkA)},
	})
}

func TestLabels(t *testing.T) {
	runRules(t, []ruleCase{
		{"aria-label first", `<label for="i">L</label><input id="i" aria-label="Aria" title="T" placeholder="P">`,
			content(`{"role":"text_input","label":"Aria","actions":["type","clear"],"attrs":{"input_type":"text","placeholder":"P"}}`)},
		{"then aria-labelledby", `<span id="n">Named</span><label for="i">L</label><input id="i" aria-labelledby="n" title="T">`,
			content(`{"role":"paragraph","text":"Named"}`, `{"role":"text_input","label":"Named","actions":["type","clear"],"attrs":{"input_type":"text"}}`)},
		{"then label[for]", `<label for="i">L</label><input id="i" title="T" placeholder="P">`,
			content(`{"role":"text_input","label":"L","actions":["type","clear"],"attrs":{"input_type":"text","placeholder":"P"}}`)},
		{"then a wrapping label", `<label>Wrap <input title="T"></label>`,
			content(`{"role":"text_input","label":"Wrap","actions":["type","clear"],"attrs":{"input_type":"text"}}`)},
		{"then title", `<input title="T" placeholder="P">`,
			content(`{"role":"text_input","label":"T","actions":["type","clear"],"attrs":{"input_type":"text","placeholder":"P"}}`)},
		{"then placeholder", `<input placeholder="P">`,
			content(`{"role":"text_input","label":"P","actions":["type","clear"],"attrs":{"input_type":"text","placeholder":"P"}}`)},
		{"checkbox in a wrapping label", `<label><input type="checkbox"> Remember me</label>`,
			content(`{"role":"checkbox","label":"Remember me","actions":["toggle"]}`)},
	})
}

func TestText(t *testing.T) {
	runRules(t, []ruleCase{
		{"whitespace folded and trimmed", "<p>  a \n\t b&nbsp;&nbsp;c  </p>", content(`{"role":"paragraph","text":"a b c"}`)},
		{"truncated at 200 characters with ...", `<p>` + long(250) + `</p>`, content(`{"role":"paragraph","text":"` + long(200) + `..."}`)},
		{"exactly 200 characters is not truncated", `<p>` + long(200) + `</p>`, content(`{"role":"paragraph","text":"` + long(200) + `"}`)},
		{"hidden attribute", `<p hidden>no</p><p>x</p>`, content(paraX)},
		{"aria-hidden=true", `<div aria-hidden="true"><a href="/n">no</a></div><p>x</p>`, content(paraX)},
		{"inline display:none", `<div style="color: red; DISPLAY : none !important">no</div><p>x</p>`, content(paraX)},
		{"inline visibility:hidden", `<p style="visibility:hidden">no</p><p>x</p>`, content(paraX)},
		{"template", `<template><p>no</p></template><p>x</p>`, content(paraX)},
		{"script, style, noscript and comments", `<script>no()</script><style>p{}</style><noscript>no</noscript><!-- no --><p>x</p>`, content(paraX)},
		{"empty elements are out", `<div><span> </span></div><section></section><ul><li></li></ul><p>x</p>`, content(paraX)},
		{"block boundaries separate words", `<div><div>a</div><div>b</div></div>`,
			content(`{"role":"paragraph","text":"a"}`, `{"role":"paragraph","text":"b"}`)},
		{"inline elements join without spaces", `<p>a<b>b</b>c</p>`, content(`{"role":"paragraph","text":"abc"}`)},
		{"br separates", `<p>a<br>b</p>`, content(`{"role":"paragraph","text":"a b"}`)},
		{"link-only blocks make no paragraph", `<div><a href="/a">A</a> <a href="/b">B</a></div>`, content(linkA, linkB)},
	})
}

func TestNestingInsideControls(t *testing.T) {
	runRules(t, []ruleCase{
		{"blocks inside a button keep the surrounding text", `<div>Text <button><div>Go</div></button> more</div>`,
			content(`{"role":"paragraph","text":"Text more"}`, `{"role":"button","text":"Go","actions":["click"]}`)},
		{"block link: content is the link's text", `<a href="/a"><h3>Title</h3><p>Desc</p></a>`,
			content(`{"role":"link","text":"Title Desc","actions":["click"],"attrs":{"href":"/a"}}`)},
		{"a link inside a button is still an element", `<button>Go <a href="/a">A</a></button>`,
			content(`{"role":"button","text":"Go A","actions":["click"]}`, linkA)},
	})
}
