package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"

	"github.com/plasmate/plasmate/adapters/htmlcharset"
	"github.com/plasmate/plasmate/adapters/htmlparse"
	"github.com/plasmate/plasmate/app"
	"github.com/plasmate/plasmate/ports"
)

type compileCmd struct {
	File   string `arg:"" optional:"" default:"-" help:"HTML file to compile; - or nothing reads stdin."`
	URL    string `help:"URL the page was served from: the origin of element ids and the base of links and form actions (default: the file's file:// URL)."`
	Pretty bool   `help:"Indent the JSON for reading."`
}

func (c *compileCmd) Run(e *env) error {
	var raw []byte
	var err error
	pageURL := c.URL
	if c.File == "-" {
		raw, err = io.ReadAll(e.stdin)
		if pageURL == "" {
			pageURL = "about:blank"
		}
	} else {
		raw, err = os.ReadFile(c.File)
		if pageURL == "" {
			abs, _ := filepath.Abs(c.File)
			pageURL = (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
		}
	}
	if err != nil {
		return fmt.Errorf("read input: %w", err)
	}
	if u, perr := url.Parse(pageURL); perr != nil || u.Scheme == "" {
		return usageError{fmt.Errorf("--url %q is not an absolute URL", c.URL)}
	}
	body, cs := htmlcharset.Decode(raw, "")
	page, err := app.NewCompiler(htmlparse.New()).Compile(&ports.Response{
		URL: pageURL, Status: 200, ContentType: "text/html", Body: body, RawBytes: len(raw), Charset: cs,
	})
	if err != nil {
		return err
	}
	out := page.JSON
	if c.Pretty {
		var buf bytes.Buffer
		if err := json.Indent(&buf, page.JSON, "", "  "); err != nil {
			return err
		}
		out = buf.Bytes()
	}
	_, err = e.stdout.Write(append(out, '\n'))
	return err
}
