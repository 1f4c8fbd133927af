package main

import "testing"

func TestParseMemoryLimit(t *testing.T) {
	tests := []struct {
		in      string
		want    int64
		wantErr bool
	}{
		{in: "", want: 0},
		{in: "1048576", want: 1 << 20},
		{in: "512B", want: 512},
		{in: "64KiB", want: 64 << 10},
		{in: "350MiB", want: 350 << 20},
		{in: " 2 GiB ", want: 2 << 30},
		{in: "1TiB", want: 1 << 40},
		{in: "0", wantErr: true},
		{in: "-5MiB", wantErr: true},
		{in: "350MB", wantErr: true},
		{in: "1.5GiB", wantErr: true},
		{in: "MiB", wantErr: true},
		{in: "9999999999TiB", wantErr: true},
	}
	for _, tt := range tests {
		got, err := parseMemoryLimit(tt.in)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("parseMemoryLimit(%q) = %d, %v; want %d, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}
