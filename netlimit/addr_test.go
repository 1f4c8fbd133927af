package netlimit

import (
	"net/http"
	"net/netip"
	"strings"
	"testing"
)

func TestClientAddr(t *testing.T) {
	trusted, err := ParsePrefixes("10.0.0.0/8, 192.0.2.7, fd00::/8")
	if err != nil {
		t.Fatal(err)
	}
	r := NewResolver(trusted)
	tests := []struct {
		name   string
		remote string
		xff    []string
		realIP string
		want   string
	}{
		{name: "direct client", remote: "203.0.113.9:5555", want: "203.0.113.9"},
		{name: "an untrusted peer's headers are ignored", remote: "203.0.113.9:5555",
			xff: []string{"198.51.100.1"}, realIP: "198.51.100.2", want: "203.0.113.9"},
		{name: "trusted proxy, one hop", remote: "10.1.2.3:80", xff: []string{"198.51.100.1"}, want: "198.51.100.1"},
		{name: "trusted proxy, a client's forged hop on the left is skipped", remote: "10.1.2.3:80",
			xff: []string{"1.2.3.4, 198.51.100.1"}, want: "198.51.100.1"},
		{name: "a chain of trusted proxies", remote: "10.1.2.3:80",
			xff: []string{"198.51.100.1, 10.9.9.9", "192.0.2.7"}, want: "198.51.100.1"},
		{name: "every hop trusted: the leftmost", remote: "10.1.2.3:80", xff: []string{"10.0.0.5, 10.0.0.6"}, want: "10.0.0.5"},
		{name: "a malformed hop stops the walk", remote: "10.1.2.3:80", xff: []string{"garbage, 10.0.0.6"}, want: "10.0.0.6"},
		{name: "malformed last hop: the proxy itself", remote: "10.1.2.3:80", xff: []string{"garbage"}, want: "10.1.2.3"},
		{name: "X-Real-IP without X-Forwarded-For", remote: "10.1.2.3:80", realIP: " 198.51.100.3 ", want: "198.51.100.3"},
		{name: "X-Forwarded-For wins over X-Real-IP", remote: "10.1.2.3:80", xff: []string{"198.51.100.1"}, realIP: "198.51.100.3", want: "198.51.100.1"},
		{name: "malformed X-Real-IP: the proxy", remote: "10.1.2.3:80", realIP: "nope", want: "10.1.2.3"},
		{name: "IPv6 proxy and client", remote: "[fd00::1]:80", xff: []string{"2001:db8::7"}, want: "2001:db8::7"},
		{name: "IPv4-mapped IPv6 peer", remote: "[::ffff:10.1.2.3]:80", xff: []string{"::ffff:198.51.100.1"}, want: "198.51.100.1"},
		{name: "not an IP peer", remote: "@", want: "invalid IP"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := &http.Request{RemoteAddr: tt.remote, Header: http.Header{}}
			for _, v := range tt.xff {
				req.Header.Add("X-Forwarded-For", v)
			}
			if tt.realIP != "" {
				req.Header.Set("X-Real-IP", tt.realIP)
			}
			if got := r.ClientAddr(req).String(); got != tt.want {
				t.Errorf("ClientAddr = %s, want %s", got, tt.want)
			}
		})
	}
	// Trusting nobody (the zero Resolver, the default) ignores every header.
	req := &http.Request{RemoteAddr: "10.1.2.3:80", Header: http.Header{"X-Forwarded-For": {"198.51.100.1"}}}
	if got := (*Resolver)(nil).ClientAddr(req).String(); got != "10.1.2.3" {
		t.Errorf("without trusted proxies: %s, want the peer", got)
	}
}

func TestParsePrefixes(t *testing.T) {
	tests := []struct {
		in      string
		want    string
		wantErr bool
	}{
		{in: "", want: ""},
		{in: " , ", want: ""},
		{in: "10.0.0.0/8", want: "10.0.0.0/8"},
		{in: "10.1.2.3/8", want: "10.0.0.0/8"},
		{in: "192.0.2.7,fd00::/8", want: "192.0.2.7/32 fd00::/8"},
		{in: "::ffff:192.0.2.7", want: "192.0.2.7/32"},
		{in: "10.0.0.0/33", wantErr: true},
		{in: "proxy.example", wantErr: true},
	}
	for _, tt := range tests {
		ps, err := ParsePrefixes(tt.in)
		var got []string
		for _, p := range ps {
			got = append(got, p.String())
		}
		if (err != nil) != tt.wantErr || strings.Join(got, " ") != tt.want {
			t.Errorf("ParsePrefixes(%q) = %v, %v; want %q, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestKey(t *testing.T) {
	tests := []struct{ in, want string }{
		{"198.51.100.1", "198.51.100.1"},
		{"::ffff:198.51.100.1", "198.51.100.1"},
		{"2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"},
		{"2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"},
	}
	for _, tt := range tests {
		if got := Key(netip.MustParseAddr(tt.in)); got != tt.want {
			t.Errorf("Key(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
	if got := Key(netip.Addr{}); got != "unknown" {
		t.Errorf("Key of an invalid address = %s", got)
	}
}

// FuzzClientAddr: whatever the headers say, the answer is the peer or an
// address written in them, and an untrusted peer is always itself.
func FuzzClientAddr(f *testing.F) {
	f.Add("10.1.2.3:80", "198.51.100.1, 10.0.0.2", "198.51.100.3")
	f.Add("203.0.113.9:1", "1.2.3.4", "")
	f.Add("[fd00::1]:80", "garbage,,", "::1")
	r := NewResolver([]netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("fd00::/8")})
	f.Fuzz(func(t *testing.T, remote, xff, realIP string) {
		req := &http.Request{RemoteAddr: remote, Header: http.Header{"X-Forwarded-For": {xff}, "X-Real-Ip": {realIP}}}
		got := r.ClientAddr(req)
		peer := PeerAddr(remote)
		if !r.Trusted(peer) {
			if got != peer {
				t.Fatalf("untrusted peer %s attributed to %s", peer, got)
			}
			return
		}
		if got != peer && !strings.Contains(xff+realIP, strings.TrimPrefix(got.String(), "::ffff:")) {
			// An address may be written in another form (mapped, zones);
			// it must at least parse from one of the headers' fields.
			found := false
			for _, f := range strings.FieldsFunc(xff+","+realIP, func(r rune) bool { return r == ',' || r == ' ' }) {
				if a, err := netip.ParseAddr(f); err == nil && a.Unmap() == got {
					found = true
				}
			}
			if !found {
				t.Fatalf("client %s is neither the peer %s nor in the headers %q %q", got, peer, xff, realIP)
			}
		}
	})
}
