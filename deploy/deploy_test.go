package deploy_test

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/tabuleiro/tabuleiro/internal/testkit/lobbybin"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
)

// drainTimeout is how long cmd/lobby waits for a graceful shutdown
// (docs/configuration.md, "Signals").
const drainTimeout = 20

// readYAML decodes every document of a YAML file into generic maps.
func readYAML(t *testing.T, path string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	var docs []map[string]any
	for {
		var d map[string]any
		err := dec.Decode(&d)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if d != nil {
			docs = append(docs, d)
		}
	}
	if len(docs) == 0 {
		t.Fatalf("%s: no YAML documents", path)
	}
	return docs
}

// get walks a path of map keys and list indexes through decoded YAML.
func get(t *testing.T, v any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("at %v: %T is not a map", path, v)
			}
			v = m[k]
		case int:
			l, ok := v.([]any)
			if !ok || k >= len(l) {
				t.Fatalf("at %v: not a list of more than %d", path, k)
			}
			v = l[k]
		}
	}
	return v
}

func str(t *testing.T, v any, path ...any) string {
	t.Helper()
	s, ok := get(t, v, path...).(string)
	if !ok {
		t.Fatalf("%v: got %T, want a string", path, get(t, v, path...))
	}
	return s
}

func num(t *testing.T, v any, path ...any) int {
	t.Helper()
	n, ok := get(t, v, path...).(int)
	if !ok {
		t.Fatalf("%v: got %T, want a number", path, get(t, v, path...))
	}
	return n
}

// served checks that the real service answers 200 at each path.
func served(t *testing.T, paths ...string) { answers(t, http.StatusOK, paths...) }

// answers checks that the real service's public listener answers status on
// each of paths.
func answers(t *testing.T, status int, paths ...string) {
	t.Helper()
	s := testserver.Start(t)
	for _, p := range paths {
		resp, err := http.Get(s.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != status {
			t.Errorf("GET %s: got %s, want %d", p, resp.Status, status)
		}
	}
}

func TestKubernetesManifests(t *testing.T) {
	kust := readYAML(t, "k8s/kustomization.yaml")[0]
	byKind := map[string][]map[string]any{}
	for _, r := range get(t, kust, "resources").([]any) {
		for _, d := range readYAML(t, filepath.Join("k8s", r.(string))) {
			for _, k := range []string{"apiVersion", "kind"} {
				if _, ok := d[k].(string); !ok {
					t.Errorf("%s: a document without %s", r, k)
				}
			}
			if str(t, d, "metadata", "name") == "" {
				t.Errorf("%s: a %v without a name", r, d["kind"])
			}
			byKind[d["kind"].(string)] = append(byKind[d["kind"].(string)], d)
		}
	}
	for kind, n := range map[string]int{"Namespace": 1, "Deployment": 1, "Service": 2, "PodDisruptionBudget": 1, "StatefulSet": 1} {
		if got := len(byKind[kind]); got != n {
			t.Errorf("%d %s, want %d", got, kind, n)
		}
	}
	dep := byKind["Deployment"][0]
	labels := get(t, dep, "spec", "template", "metadata", "labels").(map[string]any)
	matches := func(what string, sel any) {
		t.Helper()
		m, ok := sel.(map[string]any)
		if !ok || len(m) == 0 {
			t.Errorf("%s: empty selector", what)
		}
		for k, v := range m {
			if labels[k] != v {
				t.Errorf("%s selects %s=%v, the lobby pods have %v", what, k, v, labels[k])
			}
		}
	}
	matches("Deployment", get(t, dep, "spec", "selector", "matchLabels"))
	matches("PodDisruptionBudget", get(t, byKind["PodDisruptionBudget"][0], "spec", "selector", "matchLabels"))
	var lobbySvc map[string]any
	for _, s := range byKind["Service"] {
		if str(t, s, "metadata", "name") == "lobby" {
			lobbySvc = s
		}
	}
	if lobbySvc == nil {
		t.Fatal("no Service named lobby")
	}
	matches("Service lobby", get(t, lobbySvc, "spec", "selector"))

	c := get(t, dep, "spec", "template", "spec", "containers", 0)
	port := str(t, c, "ports", 0, "name")
	if got := str(t, lobbySvc, "spec", "ports", 0, "targetPort"); got != port {
		t.Errorf("Service targets port %q, the container names %q", got, port)
	}
	for _, probe := range []string{"readinessProbe", "livenessProbe"} {
		if got := str(t, c, probe, "httpGet", "port"); got != port {
			t.Errorf("%s on port %q, the container names %q", probe, got, port)
		}
	}
	if got := str(t, c, "readinessProbe", "httpGet", "path"); got != "/readyz" {
		t.Errorf("readiness probe path %q, want /readyz (it reports the store)", got)
	}
	served(t, str(t, c, "readinessProbe", "httpGet", "path"), str(t, c, "livenessProbe", "httpGet", "path"))

	grace := num(t, dep, "spec", "template", "spec", "terminationGracePeriodSeconds")
	preStop := num(t, c, "lifecycle", "preStop", "sleep", "seconds")
	if grace <= preStop+drainTimeout {
		t.Errorf("terminationGracePeriodSeconds %d <= preStop %d + drain %d: the kubelet would kill a draining lobby", grace, preStop, drainTimeout)
	}
	if get(t, dep, "spec", "template", "spec", "securityContext", "runAsNonRoot") != true {
		t.Error("the lobby pod may run as root")
	}
	var redisURL string
	for _, e := range get(t, c, "env").([]any) {
		if str(t, e, "name") == "TABULEIRO_REDIS" {
			redisURL = str(t, e, "value")
		}
	}
	if !strings.Contains(redisURL, "//"+str(t, byKind["StatefulSet"][0], "spec", "serviceName")+":") {
		t.Errorf("TABULEIRO_REDIS %q does not name the redis Service", redisURL)
	}
	// The metrics are on a port of their own, which the Service does not
	// expose, and the public listener does not serve them.
	var metricsAddr string
	for _, e := range get(t, c, "env").([]any) {
		if str(t, e, "name") == "TABULEIRO_METRICS_ADDR" {
			metricsAddr = str(t, e, "value")
		}
	}
	if metricsAddr == "" || strings.HasSuffix(metricsAddr, ":"+strconv.Itoa(num(t, c, "ports", 0, "containerPort"))) {
		t.Errorf("TABULEIRO_METRICS_ADDR %q: want a port of its own", metricsAddr)
	}
	for _, p := range get(t, lobbySvc, "spec", "ports").([]any) {
		if tp := str(t, p, "targetPort"); tp != port {
			t.Errorf("Service lobby exposes port %q besides %q", tp, port)
		}
	}
	answers(t, http.StatusNotFound, "/metrics")
	// Redis has a memory budget and refuses writes past it.
	args := strings.Join(anyStrings(get(t, byKind["StatefulSet"][0], "spec", "template", "spec", "containers", 0, "args")), " ")
	checkRedisMemory(t, "the Redis StatefulSet", args)
}

// checkRedisMemory checks that a Redis configuration sets maxmemory and the
// noeviction policy (deploy/README.md, "Memory").
func checkRedisMemory(t *testing.T, what, conf string) {
	t.Helper()
	if !regexp.MustCompile(`maxmemory\s+\d+[kmg]b`).MatchString(conf) {
		t.Errorf("%s sets no maxmemory", what)
	}
	if !regexp.MustCompile(`maxmemory-policy\s+noeviction`).MatchString(conf) {
		t.Errorf("%s does not refuse writes when full (maxmemory-policy noeviction)", what)
	}
}

func TestCompose(t *testing.T) {
	c := readYAML(t, "compose.yaml")[0]
	services := get(t, c, "services").(map[string]any)
	for _, s := range []string{"redis", "lobby", "proxy"} {
		if services[s] == nil {
			t.Fatalf("no service %q", s)
		}
	}
	lobby := services["lobby"]
	df := filepath.Join(str(t, lobby, "build", "context"), str(t, lobby, "build", "dockerfile"))
	if _, err := os.Stat(df); err != nil {
		t.Errorf("lobby build: %v", err)
	}
	if got := str(t, lobby, "environment", "TABULEIRO_REDIS"); !strings.HasPrefix(got, "redis://redis:") {
		t.Errorf("TABULEIRO_REDIS %q does not name the redis service", got)
	}
	addr := str(t, lobby, "environment", "TABULEIRO_ADDR")
	hc := strings.Join(anyStrings(get(t, lobby, "healthcheck", "test")), " ")
	if !strings.Contains(hc, "-probe") || !strings.Contains(hc, addr[strings.LastIndex(addr, ":"):]+"/readyz") {
		t.Errorf("lobby health check %q does not probe /readyz on %s", hc, addr)
	}
	// Every file mounted into a container exists.
	for name, s := range services {
		vols, _ := get(t, s, "volumes").([]any)
		for _, v := range vols {
			src := strings.SplitN(v.(string), ":", 2)[0]
			if strings.HasPrefix(src, "./") {
				if _, err := os.Stat(src); err != nil {
					t.Errorf("service %s mounts %s: %v", name, src, err)
				}
			}
		}
	}
	// The proxy sends to the lobby service on the port it listens on.
	caddy, err := os.ReadFile("Caddyfile")
	if err != nil {
		t.Fatal(err)
	}
	want := "dynamic a lobby " + addr[strings.LastIndex(addr, ":")+1:]
	if !strings.Contains(string(caddy), want) {
		t.Errorf("Caddyfile has no %q upstream", want)
	}
	if !regexp.MustCompile(`@private path /metrics[^\n]*\n\s*respond @private 404`).Match(caddy) {
		t.Error("the Caddyfile does not refuse /metrics")
	}
	if m := str(t, lobby, "environment", "TABULEIRO_METRICS_ADDR"); m == "" || m == addr {
		t.Errorf("TABULEIRO_METRICS_ADDR %q: want a port of its own, not %s", m, addr)
	}
	conf, err := os.ReadFile("redis.conf")
	if err != nil {
		t.Fatal(err)
	}
	checkRedisMemory(t, "redis.conf", string(conf))
	stop, err := time.ParseDuration(str(t, lobby, "stop_grace_period"))
	if err != nil || stop <= drainTimeout*time.Second {
		t.Errorf("stop_grace_period %v (%v) is not longer than the %ds drain", stop, err, drainTimeout)
	}
}

func anyStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

func TestDockerfile(t *testing.T) {
	b, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	df := string(b)
	froms := regexp.MustCompile(`(?m)^FROM\s+(\S+)`).FindAllStringSubmatch(df, -1)
	if len(froms) < 2 {
		t.Fatalf("%d FROM lines, want a multi-stage build", len(froms))
	}
	final := froms[len(froms)-1][1]
	if !strings.Contains(final, "distroless/static") && final != "scratch" {
		t.Errorf("final image %s, want distroless static or scratch", final)
	}
	for _, want := range []string{"CGO_ENABLED=0", "./cmd/lobby", "USER nonroot", "-probe"} {
		if !strings.Contains(df, want) {
			t.Errorf("Dockerfile lacks %q", want)
		}
	}
	// The probe the image's HEALTHCHECK runs works against the real service,
	// and fails when nothing listens.
	bin := lobbybin.Build(t, false)
	s := testserver.Start(t)
	if out, err := exec.Command(bin, "-probe", s.URL+"/readyz").CombinedOutput(); err != nil {
		t.Errorf("probe of a ready server: %v\n%s", err, out)
	}
	s.HTTP.Close()
	if err := exec.Command(bin, "-probe", s.URL+"/readyz").Run(); err == nil {
		t.Error("probe of a closed server: exit 0, want 1")
	}
}
