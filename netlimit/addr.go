// Package netlimit bounds what clients may hold of the service's network
// side: who a client is (its address, taken from a trusted proxy's header
// only), how many connections it and everyone together may open (Counter,
// Listener), and how many the process's open-file limit allows (ConnBudget).
package netlimit

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Resolver finds the address of the client behind a request. A request
// from a trusted proxy is attributed to the address the proxy names in
// X-Forwarded-For (the nearest one that is not itself a trusted proxy) or,
// without that header, X-Real-IP; a request from any other peer is
// attributed to the peer, whatever its headers say, so that a client
// cannot choose the address it is counted under. The zero value trusts no
// proxy.
type Resolver struct {
	trusted []netip.Prefix
}

// NewResolver returns a Resolver that trusts the given proxies.
func NewResolver(trusted []netip.Prefix) *Resolver {
	return &Resolver{trusted: trusted}
}

// ParsePrefixes parses a comma-separated list of CIDR prefixes or single
// addresses ("10.0.0.0/8, 192.0.2.7, fd00::/8"); empty gives none.
func ParsePrefixes(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if strings.Contains(f, "/") {
			p, err := netip.ParsePrefix(f)
			if err != nil {
				return nil, fmt.Errorf("trusted proxy %q: %w", f, err)
			}
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q: %w", f, err)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// Trusted reports whether a is one of the trusted proxies.
func (r *Resolver) Trusted(a netip.Addr) bool {
	if r == nil {
		return false
	}
	a = a.Unmap()
	for _, p := range r.trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// ClientAddr returns the client's address; an invalid Addr when the peer's
// own address cannot be read (not a TCP peer).
func (r *Resolver) ClientAddr(req *http.Request) netip.Addr {
	peer := PeerAddr(req.RemoteAddr)
	if !peer.IsValid() || !r.Trusted(peer) {
		return peer
	}
	if hops := forwardedFor(req.Header); len(hops) > 0 {
		// Right to left: the nearest hops were added by our proxies; the
		// first address that is not a trusted proxy is the client. What a
		// client wrote itself (the left part) is never reached unless every
		// hop after it is trusted.
		client := peer
		for i := len(hops) - 1; i >= 0; i-- {
			a, err := netip.ParseAddr(hops[i])
			if err != nil {
				break
			}
			client = a.Unmap()
			if !r.Trusted(client) {
				break
			}
		}
		return client
	}
	if a, err := netip.ParseAddr(strings.TrimSpace(req.Header.Get("X-Real-Ip"))); err == nil {
		return a.Unmap()
	}
	return peer
}

// Key is the string a client is counted under: its address, or for IPv6
// its /64 network (one subscriber's usual allocation, so that a client
// cannot take a fresh address per connection).
func Key(a netip.Addr) string {
	if !a.IsValid() {
		return "unknown"
	}
	a = a.Unmap()
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}

// PeerAddr parses a "host:port" remote address; invalid when it is not an
// IP address and port.
func PeerAddr(remote string) netip.Addr {
	ap, err := netip.ParseAddrPort(remote)
	if err != nil {
		host, _, err := net.SplitHostPort(remote)
		if err != nil {
			return netip.Addr{}
		}
		a, err := netip.ParseAddr(host)
		if err != nil {
			return netip.Addr{}
		}
		return a.Unmap()
	}
	return ap.Addr().Unmap()
}

// forwardedFor returns the hops of every X-Forwarded-For header, in order.
func forwardedFor(h http.Header) []string {
	var hops []string
	for _, v := range h.Values("X-Forwarded-For") {
		for _, hop := range strings.Split(v, ",") {
			hops = append(hops, strings.TrimSpace(hop))
		}
	}
	return hops
}
