package server_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// BenchmarkBotReplyUnderAnalyses measures how long a bot in a live room
// (go 9x9, level facil) takes to answer a person's move, alone and while
// ten analyses of 9x9 go games run (docs/PERFORMANCE.md, "Analyses and
// live bots"). It reports the median and the 90th percentile of each, in
// milliseconds; compare the two from the same run.
//
//	go test -run '^$' -bench BotReplyUnderAnalyses -benchtime 1x ./internal/server/
func BenchmarkBotReplyUnderAnalyses(b *testing.B) {
	recs := memstore.NewRecords()
	s := testserver.Start(b, func(c *server.Config) { c.Store = memstore.New(memstore.WithRecords(recs)) })
	rng := rand.New(rand.NewPCG(3, 4))
	var games []string
	for i := range 10 {
		room := fmt.Sprintf("bench%d", i)
		playGameTB(b, recs, room, "go", "9", 60, func(st engine.State, seat int) string {
			l := st.Legal(seat)
			return l[rng.IntN(len(l))]
		})
		games = append(games, room)
	}
	replies := func(n int) []time.Duration {
		c := s.Hello(b, "ana", "")
		c.Send(map[string]any{"type": "room.create", "game": "go", "variant": "9", "opponent": "bot", "level": "facil"})
		room := c.Wait("room.joined", nil).Room
		st := c.State(room, func(m testserver.Msg) bool { return m.Status == "playing" && m.Turn != nil && *m.Turn == 0 })
		var out []time.Duration
		for range n {
			legal := slices.DeleteFunc(slices.Clone(st.Legal), func(m string) bool { return m == "pass" })
			if len(legal) == 0 || st.Status != "playing" {
				break
			}
			seq := st.Seq
			start := time.Now()
			c.Send(map[string]any{"type": "room.move", "room": room, "move": legal[rng.IntN(len(legal))]})
			st = c.State(room, func(m testserver.Msg) bool {
				return m.Seq > seq+1 && (m.Status != "playing" || (m.Turn != nil && *m.Turn == 0))
			})
			out = append(out, time.Since(start))
		}
		c.Close()
		return out
	}
	report := func(name string, d []time.Duration) {
		slices.Sort(d)
		if len(d) == 0 {
			return
		}
		b.ReportMetric(float64(d[len(d)/2].Microseconds())/1000, name+"-p50-ms")
		b.ReportMetric(float64(d[len(d)*9/10].Microseconds())/1000, name+"-p90-ms")
	}
	for range b.N {
		report("alone", replies(20))
		for _, room := range games {
			resp, err := http.Post(s.URL+"/api/records/"+room+"/analysis", "application/json", nil)
			if err != nil {
				b.Fatal(err)
			}
			resp.Body.Close()
		}
		report("with10analyses", replies(20))
	}
}
