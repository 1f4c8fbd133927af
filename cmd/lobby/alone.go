package main

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/broker"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/redisstore"
)

// guardRooms makes two nodes on one Redis (and -prefix) never serve the
// same room: a node without -cluster serves rooms without leases, so it
// must be alone, and a -cluster node must not start beside it. Every node
// on Redis keeps a liveness key ("<prefix>bus:alive:<node>", its kind as
// value); at start a node says it is alive first, then looks at the others:
// a node without -cluster refuses to start while any other node is alive,
// a -cluster node while a node without -cluster is. A key of a process that
// died runs out within liveTTL, so the check waits that long (and half
// again) before refusing: a single node restarted after a crash starts
// within about liveTTL. Two nodes starting at once see each other and both
// refuse; neither serves alone.
//
// It returns a function that stops the key's renewal and removes it
// (nil: nothing to do: memory store, or liveTTL 0). A -cluster node's hub
// renews the key afterwards itself (cluster.Config.Liveness).
func guardRooms(ctx context.Context, log *zap.Logger, st store.Store, o options) (stop func(), err error) {
	rs, ok := st.(*redisstore.Store)
	if !ok || o.liveTTL <= 0 {
		return nil, nil
	}
	lv := broker.NewRedisLiveness(rs.Client(), o.prefix+"bus:")
	kind := broker.KindSingle
	if o.cluster {
		kind = broker.KindCluster
	}
	beat := func() error {
		bctx, cancel := context.WithTimeout(ctx, o.liveTTL/2)
		defer cancel()
		return lv.Beat(bctx, o.node, kind, o.liveTTL)
	}
	forget := func() {
		fctx, cancel := context.WithTimeout(context.Background(), o.liveTTL)
		defer cancel()
		if err := lv.Forget(fctx, o.node); err != nil {
			log.Warn("forget liveness", zap.Error(err))
		}
	}
	if err := beat(); err != nil {
		return nil, err
	}
	deadline := time.Now().Add(o.liveTTL * 3 / 2)
	for {
		lctx, cancel := context.WithTimeout(ctx, o.liveTTL)
		living, err := lv.Living(lctx)
		cancel()
		if err != nil {
			forget()
			return nil, err
		}
		in := conflicts(living, o.node, kind)
		if len(in) == 0 {
			break
		}
		if time.Now().After(deadline) {
			forget()
			if kind == broker.KindSingle {
				return nil, fmt.Errorf("other nodes are alive on this Redis and -prefix (%s): a node without -cluster must be alone, or two nodes would serve the same rooms; start every node with -cluster, or stop the others", strings.Join(in, ", "))
			}
			return nil, fmt.Errorf("nodes without -cluster are alive on this Redis and -prefix (%s): they serve rooms without leases; stop them, or start them with -cluster", strings.Join(in, ", "))
		}
		log.Info("waiting for other nodes' liveness to run out", zap.Strings("nodes", in))
		select {
		case <-ctx.Done():
			forget()
			return nil, ctx.Err()
		case <-time.After(o.liveTTL / 4):
		}
		if err := beat(); err != nil {
			forget()
			return nil, err
		}
	}
	if o.cluster {
		return forget, nil
	}
	// A single node renews its key itself, every quarter of its life.
	done, quit := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(o.liveTTL / 4)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-t.C:
			}
			if err := beat(); err != nil && !errors.Is(err, context.Canceled) {
				log.Warn("renew liveness", zap.Error(err))
			}
		}
	}()
	return func() {
		close(quit)
		<-done
		forget()
	}, nil
}

// conflicts lists the living nodes that node (of kind) must not start
// beside.
func conflicts(living map[string]string, node, kind string) []string {
	var out []string
	for n, k := range living {
		if n != node && (kind == broker.KindSingle || k == broker.KindSingle) {
			out = append(out, n+" ("+k+")")
		}
	}
	sort.Strings(out)
	return out
}
