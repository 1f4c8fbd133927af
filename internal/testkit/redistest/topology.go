package redistest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Cluster is a private Redis Cluster of masters without replicas, each a
// Server of its own, stopped when the test ends.
type Cluster struct {
	Nodes []*Server
}

// StartCluster starts n cluster-enabled servers (n >= 3 for a realistic
// slot spread), splits the 16384 slots between them in equal ranges, joins
// them and waits until every node reports cluster_state:ok.
func StartCluster(t testing.TB, n int) *Cluster {
	t.Helper()
	if n < 1 {
		t.Fatalf("redistest: a cluster of %d nodes", n)
	}
	c := &Cluster{}
	for range n {
		c.Nodes = append(c.Nodes, startServer(t, "", []string{
			"--cluster-enabled", "yes",
			"--cluster-config-file", "nodes.conf",
			"--cluster-node-timeout", "2000",
		}))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	clients := make([]*redis.Client, n)
	for i, s := range c.Nodes {
		clients[i] = redis.NewClient(&redis.Options{Addr: s.Addr(), MaxRetries: -1})
		defer clients[i].Close()
	}
	const slots = 16384
	for i, cl := range clients {
		lo, hi := i*slots/n, (i+1)*slots/n-1
		if err := cl.Do(ctx, "CLUSTER", "ADDSLOTSRANGE", lo, hi).Err(); err != nil {
			t.Fatalf("redistest: CLUSTER ADDSLOTSRANGE %d %d on %s: %v", lo, hi, c.Nodes[i].Addr(), err)
		}
	}
	for _, s := range c.Nodes[1:] {
		if err := clients[0].ClusterMeet(ctx, "127.0.0.1", strconv.Itoa(s.port)).Err(); err != nil {
			t.Fatalf("redistest: CLUSTER MEET %s: %v", s.Addr(), err)
		}
	}
	for i, cl := range clients {
		for {
			info, err := cl.ClusterInfo(ctx).Result()
			if err == nil && strings.Contains(info, "cluster_state:ok") &&
				strings.Contains(info, "cluster_known_nodes:"+strconv.Itoa(n)+"\r\n") {
				break
			}
			if ctx.Err() != nil {
				t.Fatalf("redistest: node %s never saw the cluster ok: %v %q", c.Nodes[i].Addr(), err, info)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	return c
}

// URL is the cluster as redisstore.New takes it: redis+cluster:// with the
// first node as host and the others as addr parameters.
func (c *Cluster) URL() string {
	var b strings.Builder
	b.WriteString("redis+cluster://" + c.Nodes[0].Addr())
	for i, s := range c.Nodes[1:] {
		if i == 0 {
			b.WriteString("?")
		} else {
			b.WriteString("&")
		}
		b.WriteString("addr=" + s.Addr())
	}
	return b.String()
}

// Sentinel is a private master, one replica of it and one sentinel that
// watches them (quorum 1), each stopped when the test ends.
type Sentinel struct {
	Master, Replica, Sentinel *Server
	// Name is the master's name in the sentinel's configuration.
	Name string
}

// StartSentinel starts the three servers and waits until the sentinel knows
// the master and its replica. The sentinel declares the master down after
// one second without an answer and fails over to the replica.
func StartSentinel(t testing.TB) *Sentinel {
	t.Helper()
	st := &Sentinel{Name: "tabuleiro"}
	st.Master = StartServer(t)
	st.Replica = startServer(t, "", []string{"--replicaof", "127.0.0.1", strconv.Itoa(st.Master.port)})
	conf := filepath.Join(t.TempDir(), "sentinel.conf")
	cfg := fmt.Sprintf("sentinel monitor %[1]s 127.0.0.1 %[2]d 1\n"+
		"sentinel down-after-milliseconds %[1]s 1000\n"+
		"sentinel failover-timeout %[1]s 5000\n", st.Name, st.Master.port)
	if err := os.WriteFile(conf, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	st.Sentinel = startServer(t, conf, []string{"--sentinel"})

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	sc := redis.NewSentinelClient(&redis.Options{Addr: st.Sentinel.Addr(), MaxRetries: -1})
	defer sc.Close()
	for {
		replicas, err := sc.Replicas(ctx, st.Name).Result()
		if err == nil && len(replicas) == 1 {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("redistest: the sentinel never saw the replica: %v %v", err, replicas)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return st
}

// URL is the Sentinel setup as redisstore.New takes it: the sentinel as host
// and the master's name as master_name.
func (st *Sentinel) URL() string {
	return "redis://" + st.Sentinel.Addr() + "/0?master_name=" + st.Name
}
