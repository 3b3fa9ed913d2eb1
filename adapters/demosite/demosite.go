// Package demosite is a small web site bundled with plasmate, served on
// loopback by `make run`, so that plasmate can be tried with no internet:
// linked pages, a search form and a login form with a CSRF token and a
// session cookie.
package demosite

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"html/template"
	"net/http"
	"sort"
	"strings"
)

//go:embed pages/*.html
var pages embed.FS

var tmpl = template.Must(template.ParseFS(pages, "pages/*.html"))

// Article is one story of the site.
type Article struct {
	Slug, Title, Author, Date string
	Body                      []string
}

// Articles are the site's stories.
var Articles = []Article{
	{"agents-read-the-web", "Agents learn to read the web without pixels", "Ada Voss", "2026-11-02", []string{
		"A headless browser that renders nothing sounds like a contradiction. For an agent it is the point: what it needs is the structure of a page, not its paint.",
		"A Semantic Object Model keeps the links, forms and text an agent acts on, and drops the scripts, styles and markup it pays for in tokens.",
	}},
	{"token-budgets", "Why token budgets decide which agents scale", "Lin Okafor", "2026-10-18", []string{
		"Every page an agent reads is billed by the token. Raw HTML is mostly markup: a news page can cost a hundred thousand tokens before the first headline.",
		"Compiling pages first cuts that cost by an order of magnitude, and makes every element addressable by a stable id.",
	}},
	{"forms-and-cookies", "Forms, cookies and the boring parts of browsing", "Ada Voss", "2026-09-30", []string{
		"Logging in is a form post with a hidden token and a cookie that comes back on every request after it. Agents need both to work, every time.",
	}},
}

// Handler serves the site.
type Handler struct {
	mux    *http.ServeMux
	secret []byte
}

// New returns the site's handler.
func New() *Handler {
	h := &Handler{mux: http.NewServeMux(), secret: make([]byte, 32)}
	_, _ = rand.Read(h.secret)
	h.mux.HandleFunc("GET /{$}", h.page("home", "Home"))
	h.mux.HandleFunc("GET /articles", h.page("articles", "Articles"))
	h.mux.HandleFunc("GET /articles/{slug}", h.article)
	h.mux.HandleFunc("GET /search", h.search)
	h.mux.HandleFunc("GET /login", h.loginForm)
	h.mux.HandleFunc("POST /login", h.login)
	h.mux.HandleFunc("POST /logout", h.logout)
	h.mux.HandleFunc("GET /account", h.page("account", "Account"))
	h.mux.HandleFunc("GET /about", h.page("about", "About"))
	h.mux.HandleFunc("GET /style.css", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/css")
		_, _ = w.Write([]byte("body{font-family:sans-serif;max-width:40em;margin:auto}"))
	})
	return h
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.mux.ServeHTTP(w, r) }

type view struct {
	Title    string
	User     string
	Query    string
	Articles []Article
	Article  Article
	Results  []Article
	CSRF     string
	Error    string
}

func (h *Handler) render(w http.ResponseWriter, r *http.Request, status int, name string, v view) {
	v.User = h.user(r)
	if v.Articles == nil {
		v.Articles = Articles
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_ = tmpl.ExecuteTemplate(w, name, v)
}

func (h *Handler) page(name, title string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { h.render(w, r, http.StatusOK, name, view{Title: title}) }
}

func (h *Handler) article(w http.ResponseWriter, r *http.Request) {
	for _, a := range Articles {
		if a.Slug == r.PathValue("slug") {
			h.render(w, r, http.StatusOK, "article", view{Title: a.Title, Article: a})
			return
		}
	}
	h.render(w, r, http.StatusNotFound, "about", view{Title: "Not found"})
}

func (h *Handler) search(w http.ResponseWriter, r *http.Request) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	v := view{Title: "Search", Query: q}
	if q != "" {
		for _, a := range Articles {
			text := strings.ToLower(a.Title + " " + strings.Join(a.Body, " "))
			if strings.Contains(text, strings.ToLower(q)) {
				v.Results = append(v.Results, a)
			}
		}
		if r.URL.Query().Get("sort") != "date" {
			// Relevance: title matches before body matches; Articles are
			// newest first, which is the date order.
			lq := strings.ToLower(q)
			sort.SliceStable(v.Results, func(i, j int) bool {
				return strings.Contains(strings.ToLower(v.Results[i].Title), lq) &&
					!strings.Contains(strings.ToLower(v.Results[j].Title), lq)
			})
		}
	}
	h.render(w, r, http.StatusOK, "search", v)
}

// The CSRF token is an HMAC of a per-visitor cookie: the form is only
// accepted with both, as real sites do.
func (h *Handler) csrf(visitor string) string {
	m := hmac.New(sha256.New, h.secret)
	m.Write([]byte(visitor))
	return hex.EncodeToString(m.Sum(nil))[:32]
}

func (h *Handler) loginForm(w http.ResponseWriter, r *http.Request) {
	visitor := ""
	if c, err := r.Cookie("visitor"); err == nil {
		visitor = c.Value
	} else {
		b := make([]byte, 8)
		_, _ = rand.Read(b)
		visitor = hex.EncodeToString(b)
		http.SetCookie(w, &http.Cookie{Name: "visitor", Value: visitor, Path: "/", HttpOnly: true})
	}
	h.render(w, r, http.StatusOK, "login", view{Title: "Sign in", CSRF: h.csrf(visitor)})
}

func (h *Handler) login(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	c, err := r.Cookie("visitor")
	if err != nil || !hmac.Equal([]byte(r.PostForm.Get("csrf")), []byte(h.csrf(c.Value))) {
		h.render(w, r, http.StatusForbidden, "login", view{Title: "Sign in", Error: "Your session expired: the form was missing its security token."})
		return
	}
	if r.PostForm.Get("email") != "demo@plasmate.test" || r.PostForm.Get("password") != "plasma" {
		h.render(w, r, http.StatusUnauthorized, "login", view{Title: "Sign in", CSRF: h.csrf(c.Value), Error: "Wrong email or password."})
		return
	}
	http.SetCookie(w, &http.Cookie{Name: "user", Value: h.sign("demo"), Path: "/", HttpOnly: true})
	http.Redirect(w, r, "/account", http.StatusSeeOther)
}

func (h *Handler) logout(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: "user", Value: "", Path: "/", MaxAge: -1})
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

func (h *Handler) sign(user string) string {
	m := hmac.New(sha256.New, h.secret)
	m.Write([]byte("user:" + user))
	return user + "." + hex.EncodeToString(m.Sum(nil))[:16]
}

func (h *Handler) user(r *http.Request) string {
	c, err := r.Cookie("user")
	if err != nil {
		return ""
	}
	user, _, ok := strings.Cut(c.Value, ".")
	if !ok || !hmac.Equal([]byte(c.Value), []byte(h.sign(user))) {
		return ""
	}
	return user
}
