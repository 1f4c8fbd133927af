package redisstore

import (
	"testing"

	"github.com/redis/go-redis/v9"
)

// The client New builds keeps DefaultPoolSize connections unless the URL
// sets pool_size (no server is needed: nothing is dialled).
func TestNewClientPoolSize(t *testing.T) {
	tests := []struct {
		url  string
		want int
	}{
		{url: "127.0.0.1:6379", want: DefaultPoolSize},
		{url: "redis://127.0.0.1:6379/0", want: DefaultPoolSize},
		{url: "redis://127.0.0.1:6379/0?pool_size=7", want: 7},
		{url: "redis://s1:26379/0?master_name=m", want: DefaultPoolSize},
		{url: "redis+cluster://n1:6379?addr=n2:6379", want: DefaultPoolSize},
		{url: "redis+cluster://n1:6379?pool_size=9", want: 9},
	}
	for _, tt := range tests {
		c, _, err := newClient(tt.url)
		if err != nil {
			t.Fatalf("newClient(%q): %v", tt.url, err)
		}
		var got int
		switch c := c.(type) {
		case *redis.Client:
			got = c.Options().PoolSize
		case *redis.ClusterClient:
			got = c.Options().PoolSize
		default:
			t.Fatalf("newClient(%q): unexpected client %T", tt.url, c)
		}
		_ = c.Close()
		if got < tt.want || (tt.want != DefaultPoolSize && got != tt.want) {
			t.Errorf("newClient(%q): pool size %d, want %d", tt.url, got, tt.want)
		}
	}
}
