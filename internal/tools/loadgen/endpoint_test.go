package loadgen

import "testing"

func TestDialerEndpointSpread(t *testing.T) {
	const two = "ws://a/ws, ws://b/ws"
	tests := []struct {
		url, spread string
		id          int
		want        string
	}{
		{"ws://a/ws", "", 7, "ws://a/ws"},
		{two, "conn", 0, "ws://a/ws"},
		{two, "conn", 1, "ws://b/ws"},
		{two, "", 2, "ws://a/ws"},
		{two, "room", 0, "ws://a/ws"},
		{two, "room", 2, "ws://a/ws"},
		{two, "room", 3, "ws://b/ws"},
		{two, "room", 5, "ws://b/ws"},
		{two, "room", 6, "ws://a/ws"},
	}
	for _, tc := range tests {
		d := &Dialer{URL: tc.url, Spread: tc.spread}
		if got := d.endpoint(tc.id); got != tc.want {
			t.Errorf("endpoint(%q, %q, %d) = %q; want %q", tc.url, tc.spread, tc.id, got, tc.want)
		}
	}
}
