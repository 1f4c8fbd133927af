package web

import (
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

func get(t *testing.T, h http.Handler, p string, hdr ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, p, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestSecurityHeadersOnEveryResponse(t *testing.T) {
	h := Handler()
	for _, p := range []string{"/", "/r/abc123", "/assets/js/app.js", "/assets/app.css", "/nope", "/r/../etc"} {
		rec := get(t, h, p)
		csp := rec.Header().Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'self'", "script-src 'self'", "style-src 'self'",
			"img-src 'self' data:", "connect-src 'self' ws: wss:", "frame-ancestors 'none'", "base-uri 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: CSP %q lacks %q", p, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
			t.Errorf("%s: CSP allows unsafe sources: %q", p, csp)
		}
		if got := rec.Header().Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s: X-Content-Type-Options = %q", p, got)
		}
		if rec.Header().Get("Referrer-Policy") == "" {
			t.Errorf("%s: no Referrer-Policy", p)
		}
	}
}

func TestRoutes(t *testing.T) {
	h := Handler()
	index := get(t, h, "/")
	if index.Code != 200 || !strings.HasPrefix(index.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("/: %d %q", index.Code, index.Header().Get("Content-Type"))
	}
	for _, p := range []string{"/r/r7Kq2", "/g/r7Kq2", "/account", "/games", "/@/ana", "/@/bot.Xy_9-z", "/leaderboard", "/leaderboard/go/9", "/leaderboard/2048/solo"} {
		if room := get(t, h, p); room.Code != 200 || room.Body.String() != index.Body.String() {
			t.Errorf("%s does not serve index.html: %d", p, room.Code)
		}
	}
	for p, ct := range map[string]string{
		"/assets/js/app.js":   "text/javascript",
		"/assets/app.css":     "text/css",
		"/assets/favicon.svg": "image/svg+xml",
	} {
		rec := get(t, h, p)
		if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), ct) {
			t.Errorf("%s: %d %q, want %s", p, rec.Code, rec.Header().Get("Content-Type"), ct)
		}
		if rec.Header().Get("Cache-Control") == "" || rec.Header().Get("ETag") == "" {
			t.Errorf("%s: no caching headers", p)
		}
		again := get(t, h, p, "If-None-Match", rec.Header().Get("ETag"))
		if again.Code != http.StatusNotModified {
			t.Errorf("%s: revalidation gave %d, want 304", p, again.Code)
		}
	}
	for _, p := range []string{"/nope", "/r/", "/r/a/b", "/assets/missing.js", "/r/<script>", "/g/", "/g/a/b", "/x/r7Kq2", "/games/x", "/gamesx",
		"/@/", "/@/a/b", "/@/<b>", "/leaderboard/go", "/leaderboard/go/9/x", "/leaderboard//9", "/leaderboardx"} {
		if rec := get(t, h, p); rec.Code != 404 {
			t.Errorf("%s: %d, want 404", p, rec.Code)
		}
	}
	req := httptest.NewRequest(http.MethodPost, "/", nil)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST /: %d", rec.Code)
	}
}

func TestGzip(t *testing.T) {
	h := Handler()
	rec := get(t, h, "/assets/js/app.js", "Accept-Encoding", "gzip, deflate, br")
	if rec.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("app.js not compressed")
	}
	zr, err := gzip.NewReader(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(zr)
	plain := get(t, h, "/assets/js/app.js")
	if string(body) != plain.Body.String() {
		t.Errorf("gzip body differs from plain body")
	}
	if plain.Header().Get("Content-Encoding") != "" {
		t.Errorf("compressed without Accept-Encoding")
	}
}

var (
	refRe    = regexp.MustCompile(`<(?:link|script|img)\b[^>]*?\b(?:href|src)="([^"]+)"`)
	styleRe  = regexp.MustCompile(`['"](/assets/[^'"]+\.css)['"]`)
	pageRe   = regexp.MustCompile(`import\(\s*['"](\.{1,2}/[^'"]+)['"]\s*\)`)
	importRe = regexp.MustCompile(`(?m)^\s*(?:import|export)\b[^'";]*?(?:from\s*)?['"](\.{1,2}/[^'"]+)['"]`)
	inlineRe = regexp.MustCompile(`(?i)<script(?:\s[^>]*)?>\s*[^<\s]|\son[a-z]+\s*=|style="`)
)

// load walks what a browser fetches from roots: the files index.html's
// <link>, <script> and <img> name (not its links to other pages) and,
// recursively, the modules each script imports statically and the
// stylesheets it names. It fails
// when a reference points at no embedded asset. The pages app.js imports
// with import() are not followed: pageModules lists them.
func load(t *testing.T, h http.Handler, roots ...string) map[string]*httptest.ResponseRecorder {
	t.Helper()
	seen := map[string]*httptest.ResponseRecorder{}
	queue := roots
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if _, ok := seen[p]; ok {
			continue
		}
		rec := get(t, h, p)
		if rec.Code != 200 {
			t.Errorf("%s is referenced but answers %d", p, rec.Code)
			continue
		}
		seen[p] = get(t, h, p, "Accept-Encoding", "gzip")
		body := rec.Body.String()
		switch {
		case p == "/":
			if inlineRe.MatchString(body) {
				t.Errorf("index.html has inline script, handlers or styles")
			}
			for _, m := range refRe.FindAllStringSubmatch(body, -1) {
				if strings.HasPrefix(m[1], "/") {
					queue = append(queue, m[1])
				} else if !strings.HasPrefix(m[1], "#") {
					t.Errorf("index.html references %q: want an absolute local path", m[1])
				}
			}
		case strings.HasSuffix(p, ".js"):
			for _, m := range importRe.FindAllStringSubmatch(body, -1) {
				queue = append(queue, path.Join(path.Dir(p), m[1]))
			}
			// A stylesheet a page links when it is shown (profile.js, useStyle).
			for _, m := range styleRe.FindAllStringSubmatch(body, -1) {
				queue = append(queue, m[1])
			}
		}
	}
	return seen
}

// pageModules lists the pages app.js loads when they are first shown
// (import('./x.js')).
func pageModules(t *testing.T, h http.Handler) []string {
	t.Helper()
	var out []string
	for _, m := range pageRe.FindAllStringSubmatch(get(t, h, "/assets/js/app.js").Body.String(), -1) {
		out = append(out, path.Join("/assets/js", m[1]))
	}
	if len(out) == 0 {
		t.Fatal("app.js imports no page with import()")
	}
	return out
}

// TestIndexReferencesExistingAssetsAndPageWeight weighs the first load of
// every page (index.html, what it names, app.js's modules and the page's own
// module graph), with the largest message catalogue and every sound.
func TestIndexReferencesExistingAssetsAndPageWeight(t *testing.T) {
	h := Handler()
	if _, ok := load(t, h, "/")["/assets/js/app.js"]; !ok {
		t.Fatalf("app.js is not loaded by index.html")
	}
	hh := h.(*handler)
	largest := ""
	for p, a := range hh.assets {
		if strings.HasPrefix(p, "/assets/i18n/") && (largest == "" || len(a.body) > len(hh.assets[largest].body)) {
			largest = p
		}
	}
	if largest == "" {
		t.Fatal("no message catalogue is embedded")
	}
	reached := map[string]bool{}
	for _, page := range pageModules(t, h) {
		loaded := load(t, h, "/", page)
		if _, ok := loaded[page]; !ok {
			t.Errorf("page module %s is not embedded", page)
		}
		// What the scripts fetch once they run: one message catalogue (the
		// largest, to be safe) and every sound.
		for p := range hh.assets {
			if strings.HasPrefix(p, "/assets/sounds/") {
				loaded[p] = get(t, h, p, "Accept-Encoding", "gzip")
			}
		}
		loaded[largest] = get(t, h, largest, "Accept-Encoding", "gzip")
		transfer, raw := 0, 0
		for p, rec := range loaded {
			reached[p] = true
			transfer += rec.Body.Len()
			raw += len(get(t, h, p).Body.Bytes())
		}
		t.Logf("first load of %s: %d files, %d bytes raw, %d bytes transferred (gzip)", page, len(loaded), raw, transfer)
		if transfer >= 200_000 {
			t.Errorf("first load of %s transfers %d bytes, want < 200 KB", page, transfer)
		}
		// Without gzip (a proxy that strips it) the page still loads in
		// reason: the sounds and a message catalogue count here too.
		if raw >= 300_000 {
			t.Errorf("first load of %s is %d bytes uncompressed, want < 300 KB even without gzip", page, raw)
		}
	}
	// Every embedded script is reachable (no dead files shipped by mistake).
	for p := range hh.assets {
		if strings.HasSuffix(p, ".js") {
			if !reached[p] {
				t.Errorf("%s is embedded but never loaded", p)
			}
		}
	}
}

func TestNoInnerHTMLInScripts(t *testing.T) {
	hh := Handler().(*handler)
	bad := regexp.MustCompile(`\.(innerHTML|outerHTML)\s*=|insertAdjacentHTML|document\.write|\beval\(|new Function\(`)
	for p, a := range hh.assets {
		if strings.HasSuffix(p, ".js") && bad.Match(a.body) {
			t.Errorf("%s writes HTML from strings; use textContent", p)
		}
	}
}

// placeholders lists the {name} placeholders of a message (every plural form).
func placeholders(v any) []string {
	re := regexp.MustCompile(`\{(\w+)\}`)
	var out []string
	add := func(s string) {
		for _, m := range re.FindAllStringSubmatch(s, -1) {
			out = append(out, m[1])
		}
	}
	switch x := v.(type) {
	case string:
		add(x)
	case map[string]any:
		for _, f := range x {
			if s, ok := f.(string); ok {
				add(s)
			}
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

func isPlural(v any) bool { _, ok := v.(map[string]any); return ok }

// TestCatalogues: every language has every message of en.json, with the
// same placeholders; every key the scripts and index.html name exists; the
// page lists every catalogue.
func TestCatalogues(t *testing.T) {
	h := Handler().(*handler)
	cats := map[string]map[string]any{}
	for p, a := range h.assets {
		code, ok := strings.CutPrefix(p, "/assets/i18n/")
		if !ok {
			continue
		}
		var cat map[string]any
		if err := json.Unmarshal(a.body, &cat); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		cats[strings.TrimSuffix(code, ".json")] = cat
	}
	en := cats["en"]
	if len(en) < 100 {
		t.Fatalf("catalogues: en has %d keys", len(en))
	}
	// English, and the two Portugueses (docs/web.md, "Languages").
	for _, code := range []string{"en", "pt-PT", "pt-BR"} {
		if cats[code] == nil {
			t.Errorf("no %s.json catalogue", code)
		}
	}
	index := get(t, h, "/").Body.String()
	for code, cat := range cats {
		for k, v := range en {
			w, ok := cat[k]
			if !ok {
				t.Errorf("%s.json lacks %q", code, k)
				continue
			}
			if a, b := placeholders(v), placeholders(w); !slices.Equal(a, b) {
				t.Errorf("%s.json %q has placeholders %v, en.json %v", code, k, b, a)
			}
			// A plural is plural in every language, with its "other" form.
			if forms, ok := w.(map[string]any); ok != isPlural(v) || ok && forms["other"] == nil {
				t.Errorf("%s.json %q: plural forms %v, en.json's %v", code, k, w, v)
			}
		}
		for k := range cat {
			if _, ok := en[k]; !ok {
				t.Errorf("%s.json has %q, which en.json has not", code, k)
			}
		}
		name, _ := cat["lang.name"].(string)
		if !strings.Contains(index, code+":"+strings.ReplaceAll(name, " ", "_")) {
			t.Errorf("index.html does not list %s (%s)", code, name)
		}
	}
	// t('key', ...) in a script, {key: 'key'} where a script names a
	// message as data (the room's model), data-i18n="key" in the page.
	keyRe := regexp.MustCompile(`\bt\(\s*'([A-Za-z0-9_.-]+)'|\bkey:\s*'([A-Za-z0-9_.-]+)'|data-i18n(?:-aria|-title|-placeholder)?="([^"]+)"`)
	used := 0
	for p, a := range h.assets {
		if !strings.HasSuffix(p, ".js") {
			continue
		}
		for _, m := range keyRe.FindAllStringSubmatch(string(a.body), -1) {
			used++
			if _, ok := en[m[1]+m[2]+m[3]]; !ok {
				t.Errorf("%s names %q, which en.json has not", p, m[1]+m[2]+m[3])
			}
		}
	}
	for _, m := range keyRe.FindAllStringSubmatch(index, -1) {
		used++
		if _, ok := en[m[1]+m[2]+m[3]]; !ok {
			t.Errorf("index.html names %q, which en.json has not", m[1]+m[2]+m[3])
		}
	}
	if used < 150 {
		t.Errorf("only %d message keys found in the scripts: is the pattern still right?", used)
	}
}

// TestLevelWordsAreNames: the English level descriptions name the other
// levels as the page shows them ("Perfect never loses to it"), never by
// the server's ids ("perfeito", "forte").
func TestLevelWordsAreNames(t *testing.T) {
	h := Handler().(*handler)
	var en map[string]any
	if err := json.Unmarshal(h.assets["/assets/i18n/en.json"].body, &en); err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for k := range en {
		// level.<id> and level.<game>.<id>.<field>
		parts := strings.Split(k, ".")
		if parts[0] == "level" && len(parts) == 2 {
			ids[parts[1]] = true
		}
	}
	word := regexp.MustCompile(`[\p{L}]+`)
	for k, v := range en {
		s, ok := v.(string)
		if !ok || !strings.HasPrefix(k, "level.") {
			continue
		}
		for _, w := range word.FindAllString(s, -1) {
			if name, _ := en["level."+w].(string); ids[w] && !strings.EqualFold(name, w) {
				t.Errorf("en.json %q names a level by its id %q: say %q", k, w, en["level."+w])
			}
		}
	}
	if len(ids) < 8 {
		t.Fatalf("found %d level ids: is the pattern still right?", len(ids))
	}
}
