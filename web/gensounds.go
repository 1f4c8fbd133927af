//go:build ignore

// gensounds writes the page's sounds (static/sounds/*.wav): short tones
// synthesised here rather than recorded, so that they are small (16-bit
// mono at 11,025 Hz, a few KB each), free of anyone's copyright, and can be
// remade. Run from web/: go run gensounds.go
package main

import (
	"bytes"
	"encoding/binary"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
)

const rate = 11025

// note is a tone from at (seconds) for dur, with an exponential decay tau
// and harmonics given as (multiple, weight) pairs.
type note struct {
	at, dur, freq, tau, gain float64
	harm                     [][2]float64
	noise                    float64 // a short noise burst at the attack, for a "tock"
}

func render(total float64, notes ...note) []int16 {
	n := int(total * rate)
	buf := make([]float64, n)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, nt := range notes {
		start := int(nt.at * rate)
		for i := 0; i < int(nt.dur*rate) && start+i < n; i++ {
			t := float64(i) / rate
			env := math.Exp(-t/nt.tau) * math.Min(1, t*rate/40) // 40-sample attack: no click
			v := 0.0
			for _, h := range nt.harm {
				v += h[1] * math.Sin(2*math.Pi*nt.freq*h[0]*t)
			}
			if nt.noise > 0 && t < 0.012 {
				v += nt.noise * (rng.Float64()*2 - 1) * (1 - t/0.012)
			}
			buf[start+i] += nt.gain * env * v
		}
	}
	out := make([]int16, n)
	for i, v := range buf {
		if i > n-80 { // fade the last samples out
			v *= float64(n-i) / 80
		}
		out[i] = int16(math.Max(-1, math.Min(1, v)) * 32000)
	}
	return out
}

func wav(samples []int16) []byte {
	var b bytes.Buffer
	data := len(samples) * 2
	w := func(v any) { binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString("RIFF")
	w(uint32(36 + data))
	b.WriteString("WAVEfmt ")
	w(uint32(16))
	w(uint16(1)) // PCM
	w(uint16(1)) // mono
	w(uint32(rate))
	w(uint32(rate * 2))
	w(uint16(2))
	w(uint16(16))
	b.WriteString("data")
	w(uint32(data))
	w(samples)
	return b.Bytes()
}

func main() {
	wood := [][2]float64{{1, 0.7}, {2.7, 0.25}, {5.4, 0.08}}
	bell := [][2]float64{{1, 0.6}, {2, 0.2}, {3, 0.08}}
	sounds := map[string][]int16{
		"move":    render(0.09, note{0, 0.09, 760, 0.018, 0.8, wood, 0.35}),
		"capture": render(0.2, note{0, 0.09, 620, 0.02, 0.8, wood, 0.4}, note{0.08, 0.11, 520, 0.025, 0.8, wood, 0.4}),
		"turn":    render(0.34, note{0, 0.16, 659.3, 0.07, 0.45, bell, 0}, note{0.13, 0.21, 880, 0.08, 0.45, bell, 0}),
		"lowtime": render(0.22, note{0, 0.06, 1046.5, 0.02, 0.5, [][2]float64{{1, 0.8}, {3, 0.2}}, 0}, note{0.14, 0.06, 1046.5, 0.02, 0.5, [][2]float64{{1, 0.8}, {3, 0.2}}, 0}),
		"end":     render(0.62, note{0, 0.2, 523.3, 0.09, 0.4, bell, 0}, note{0.12, 0.2, 659.3, 0.09, 0.4, bell, 0}, note{0.24, 0.38, 784, 0.13, 0.45, bell, 0}),
	}
	for name, s := range sounds {
		p := filepath.Join("static", "sounds", name+".wav")
		if err := os.WriteFile(p, wav(s), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
