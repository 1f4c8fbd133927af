package main

import (
	"testing"

	"github.com/tabuleiro/tabuleiro/rooms"
)

// TestChatLimits: the chat flags scale the defaults' bursts and byte
// budgets with them; the defaults give the defaults back.
func TestChatLimits(t *testing.T) {
	d := rooms.DefaultChatLimits
	for _, tc := range []struct {
		name         string
		player, room float64
		want         rooms.ChatLimits
	}{
		{"defaults", d.PlayerLines, d.RoomLines, d},
		{"twice the person, half the room", 2 * d.PlayerLines, d.RoomLines / 2, rooms.ChatLimits{
			PlayerLines: 2 * d.PlayerLines, PlayerBurst: 2 * d.PlayerBurst, PlayerBytes: 2 * d.PlayerBytes, PlayerBytesBurst: 2 * d.PlayerBytesBurst,
			RoomLines: d.RoomLines / 2, RoomBurst: d.RoomBurst / 2, RoomBytes: d.RoomBytes / 2, RoomBytesBurst: d.RoomBytesBurst / 2}},
		{"a line a minute keeps a burst of one", 1, 1, rooms.ChatLimits{
			PlayerLines: 1, PlayerBurst: 1, PlayerBytes: d.PlayerBytes / d.PlayerLines, PlayerBytesBurst: d.PlayerBytesBurst / d.PlayerLines,
			RoomLines: 1, RoomBurst: 1, RoomBytes: d.RoomBytes / d.RoomLines, RoomBytesBurst: d.RoomBytesBurst / d.RoomLines}},
	} {
		if got := chatLimits(tc.player, tc.room); got != tc.want {
			t.Errorf("%s: chatLimits(%g, %g) = %+v, want %+v", tc.name, tc.player, tc.room, got, tc.want)
		}
	}
}
