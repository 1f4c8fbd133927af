// Package web is the browser client of Tabuleiro: plain ES modules, CSS and
// SVG embedded in the binary, so that `go run ./cmd/lobby` serves the client
// from a fresh clone with no build step.
//
// Handler serves index.html for "/", the account page "/account", room
// pages "/r/<room>", finished games' pages "/g/<room>", a player's games
// "/games", tournament pages "/t/<id>", players' profiles "/@/<name>" and
// the leaderboards "/leaderboard[/<game>/<variant>]" (the client routes
// itself), and
// the assets under "/assets/". Every response
// carries a strict Content Security Policy that forbids inline script.
package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"sort"
	"strconv"
	"strings"
)

//go:generate go run gensounds.go

//go:embed static
var static embed.FS

// CSP is the Content-Security-Policy sent with every response.
const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

// contentTypes is fixed here rather than taken from the system's mime tables,
// which differ between machines (a wrong type for .js breaks module loading).
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".svg":  "image/svg+xml",
	".json": "application/json",
	".png":  "image/png",
	".ico":  "image/x-icon",
	".txt":  "text/plain; charset=utf-8",
	".wav":  "audio/wav",
}

// languagesMeta is the element of index.html that the handler fills with
// the message catalogues it embeds (static/i18n/<code>.json), so that the
// page knows its languages without another request and a new language is
// one new file.
const languagesMeta = `<meta name="languages" content="">`

// asset is one embedded file, ready to serve.
type asset struct {
	body  []byte
	gz    []byte // gzip-compressed body, nil when compression does not pay
	ctype string
	etag  string
}

type handler struct {
	assets map[string]*asset // by URL path, e.g. "/assets/js/app.js"
	index  *asset
}

// Handler returns the web client's handler, to be mounted at "/".
func Handler() http.Handler {
	h, err := newHandler(static)
	if err != nil {
		// The files are embedded at build time; failing here is a build bug.
		panic("web: " + err.Error())
	}
	return h
}

func newHandler(fsys fs.FS) (*handler, error) {
	sub, err := fs.Sub(fsys, "static")
	if err != nil {
		return nil, err
	}
	h := &handler{assets: map[string]*asset{}}
	var index []byte
	err = fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := fs.ReadFile(sub, p)
		if err != nil {
			return err
		}
		if p == "index.html" {
			index = body
			return nil
		}
		h.assets["/assets/"+p] = newAsset(p, body)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if index == nil {
		return nil, fs.ErrNotExist
	}
	langs, err := languages(sub)
	if err != nil {
		return nil, err
	}
	index = bytes.Replace(index, []byte(languagesMeta),
		[]byte(`<meta name="languages" content="`+langs+`">`), 1)
	h.index = newAsset("index.html", index)
	return h, nil
}

// languages reads the catalogues under i18n/ and lists them for the page:
// "en:English pt:Português", by code, spaces in a name written as "_".
func languages(fsys fs.FS) (string, error) {
	files, err := fs.Glob(fsys, "i18n/*.json")
	if err != nil {
		return "", err
	}
	sort.Strings(files)
	var parts []string
	for _, f := range files {
		body, err := fs.ReadFile(fsys, f)
		if err != nil {
			return "", err
		}
		var cat map[string]any
		if err := json.Unmarshal(body, &cat); err != nil {
			return "", fmt.Errorf("catalogue %s: %w", f, err)
		}
		name, _ := cat["lang.name"].(string)
		code := strings.TrimSuffix(path.Base(f), ".json")
		if name == "" || strings.ContainsAny(code+name, `"<>&:`) {
			return "", fmt.Errorf("catalogue %s: lang.name missing or not plain text", f)
		}
		parts = append(parts, code+":"+strings.ReplaceAll(name, " ", "_"))
	}
	return strings.Join(parts, " "), nil
}

func newAsset(name string, body []byte) *asset {
	sum := sha256.Sum256(body)
	ct := contentTypes[path.Ext(name)]
	if ct == "" {
		ct = "application/octet-stream"
	}
	a := &asset{body: body, ctype: ct, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
	if strings.HasPrefix(ct, "text/") || ct == "image/svg+xml" || ct == "application/json" || ct == "audio/wav" {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		zw.Write(body)
		zw.Close()
		if b.Len() < len(body)*9/10 {
			a.gz = b.Bytes()
		}
	}
	return a
}

func setSecurityHeaders(w http.ResponseWriter) {
	hd := w.Header()
	hd.Set("Content-Security-Policy", CSP)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "same-origin")
	hd.Set("X-Frame-Options", "DENY")
	hd.Set("Cross-Origin-Opener-Policy", "same-origin")
}

// isRoomPath reports whether p is a page the client routes with a
// plausible id: "/r/<room>" (a room), "/g/<room>" (a finished game's page)
// or "/t/<id>" (a tournament; "/t/new" creates one).
func isRoomPath(p string) bool {
	id, ok := strings.CutPrefix(p, "/r/")
	if !ok {
		id, ok = strings.CutPrefix(p, "/g/")
	}
	if !ok {
		id, ok = strings.CutPrefix(p, "/t/")
	}
	if !ok || id == "" || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// isProfilePath reports whether p is a player's profile page, "/@/<name>":
// an account's name or a player's id (a bot account's has a '.').
func isProfilePath(p string) bool {
	name, ok := strings.CutPrefix(p, "/@/")
	return ok && plainID(name, 64, ".")
}

// isBoardPath reports whether p is a pool's leaderboard page,
// "/leaderboard/<game>/<variant>".
func isBoardPath(p string) bool {
	rest, ok := strings.CutPrefix(p, "/leaderboard/")
	if !ok {
		return false
	}
	game, variant, ok := strings.Cut(rest, "/")
	return ok && plainID(game, 32, "") && plainID(variant, 32, "")
}

// plainID reports whether s is 1 to max letters, digits, '-', '_' and
// the characters of extra.
func plainID(s string, max int, extra string) bool {
	if s == "" || len(s) > max {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || strings.ContainsRune(extra, c)) {
			return false
		}
	}
	return true
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	setSecurityHeaders(w)
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	p := r.URL.Path
	var a *asset
	switch {
	case p == "/" || p == "/index.html" || p == "/account" || p == "/games" || p == "/leaderboard" ||
		isRoomPath(p) || isProfilePath(p) || isBoardPath(p):
		a = h.index
		// The page names its assets without a content hash, so every load
		// revalidates (a 304 costs a few bytes) and a deploy is seen at once.
		w.Header().Set("Cache-Control", "no-cache")
	case p == "/favicon.ico":
		a = h.assets["/assets/favicon.svg"]
		w.Header().Set("Cache-Control", "public, max-age=86400")
	default:
		a = h.assets[p]
		w.Header().Set("Cache-Control", "no-cache")
	}
	if a == nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", a.ctype)
	w.Header().Set("ETag", a.etag)
	w.Header().Add("Vary", "Accept-Encoding")
	if match := r.Header.Get("If-None-Match"); match != "" && etagMatches(match, a.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := a.body
	if a.gz != nil && acceptsGzip(r.Header.Get("Accept-Encoding")) {
		body = a.gz
		w.Header().Set("Content-Encoding", "gzip")
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method == http.MethodHead {
		return
	}
	w.Write(body)
}

func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		t = strings.TrimPrefix(t, "W/")
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}

func acceptsGzip(ae string) bool {
	for _, part := range strings.Split(ae, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.TrimSpace(name) != "gzip" {
			continue
		}
		params = strings.ReplaceAll(params, " ", "")
		return params != "q=0" && params != "q=0.0" && params != "q=0.00" && params != "q=0.000"
	}
	return false
}
