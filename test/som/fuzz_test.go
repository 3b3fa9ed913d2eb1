package som_test

import (
	"testing"
)

// FuzzCompile feeds arbitrary bytes through charset decoding, the parser
// and the compiler: whatever the input, the result is a SOM that encodes
// to valid JSON with unique ids and consistent meta.
func FuzzCompile(f *testing.F) {
	seeds := []string{
		``,
		`<p>x</p>`,
		`<nav><a href="/a">A</a></nav><main><h1>T</h1><form action="/f" method=post><input name=q><button>Go</button></form></main>`,
		`<table><thead><tr><th>a</th></tr></thead><tr><td><a href=x>y</a></td></tr></table>`,
		`<ul><li>one<li><a href=/>two</a><ol><li>three</ol></ul>`,
		`<div style="display:none"><a href=/h>h</a></div><dialog open><button>x</button></dialog>`,
		`<svg role=img aria-label=L><title>t</title></svg><img src=data:x data-src=/y alt=z>`,
		"<meta charset=shift_jis><p>\x93\xfa\x96\x7b</p>",
		`<base href="//cdn.example/"><a href="a">a</a><label for=i>L</label><input id=i>`,
		`<select><optgroup><option selected>a<option>b</select><textarea>t</textarea>`,
		`<div role=button><div role=checkbox aria-checked=true>x</div></div>`,
		`<header><ul><li><a href=1>1</a><li><a href=2>2</a></ul></header>`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		s, _ := compileRaw(t, raw, "https://fuzz.example/p")
		checkValid(t, s)
	})
}
