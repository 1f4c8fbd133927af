// Chat: who may say what, how often, and who reads it.
//
// As on lichess, the players' chat and the spectators' chat are apart: a
// line of a player who holds a seat goes to everyone in the room; a line
// of anyone else (a spectator) goes to the spectators only, never to a
// player who holds a seat, whatever role that player's connection joined
// as (so that nobody can coach a player, nor talk over the players). The
// players may switch the spectators' chat off for their room (any seated
// player's wish is enough; each takes back only their own). Anyone may
// mute another person in their own view (lichess's block): the muted
// person's lines are no longer sent to the muter's connections in the
// room. Lines are bounded per player per room and per room, in lines and
// in bytes.

package rooms

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/tabuleiro/tabuleiro/netlimit"
	"github.com/tabuleiro/tabuleiro/protocol"
)

// Chat roles of a line (protocol.ChatLine.Role).
const (
	ChatRolePlayer    = "player"
	ChatRoleSpectator = "spectator"
)

// Bounds of the chat state a room keeps.
const (
	// ChatSpeakersCap bounds the per-player rate buckets a room holds;
	// buckets that have refilled are dropped first.
	ChatSpeakersCap = 256
	// ChatMutersCap bounds the people with mutes in one room, and
	// ChatMutesCap the people one of them mutes.
	ChatMutersCap = 256
	ChatMutesCap  = 64
)

// ChatLimits bounds the chat of every room. A zero field takes its
// default (DefaultChatLimits).
type ChatLimits struct {
	// PlayerLines lines a minute per person per room, with a burst of
	// PlayerBurst lines; PlayerBytes bytes a minute (burst PlayerBytesBurst,
	// at least the longest line).
	PlayerLines, PlayerBurst      float64
	PlayerBytes, PlayerBytesBurst float64
	// RoomLines and RoomBytes are the same for everyone in one room
	// together (bursts RoomBurst, RoomBytesBurst).
	RoomLines, RoomBurst      float64
	RoomBytes, RoomBytesBurst float64
}

// DefaultChatLimits: a person says at most 20 lines a minute (5 at once)
// and 4 KB a minute (2 KB at once) in one room; a room carries at most 120
// lines (20 at once) and 32 KB a minute (8 KB at once). A person typing
// fast says about a line every 3 s; twenty connections flooding one room
// deliver at most 20 + 2 lines a second to its members.
var DefaultChatLimits = ChatLimits{PlayerLines: 20, PlayerBurst: 5, PlayerBytes: 4 << 10, PlayerBytesBurst: 2 << 10,
	RoomLines: 120, RoomBurst: 20, RoomBytes: 32 << 10, RoomBytesBurst: 8 << 10}

func (l ChatLimits) withDefaults() ChatLimits {
	d := DefaultChatLimits
	for _, f := range []struct{ v, def *float64 }{{&l.PlayerLines, &d.PlayerLines}, {&l.PlayerBurst, &d.PlayerBurst},
		{&l.PlayerBytes, &d.PlayerBytes}, {&l.PlayerBytesBurst, &d.PlayerBytesBurst}, {&l.RoomLines, &d.RoomLines},
		{&l.RoomBurst, &d.RoomBurst}, {&l.RoomBytes, &d.RoomBytes}, {&l.RoomBytesBurst, &d.RoomBytesBurst}} {
		if *f.v <= 0 {
			*f.v = *f.def
		}
	}
	// Any line must fit in a full bucket.
	l.PlayerBytesBurst = max(l.PlayerBytesBurst, 4*ChatLimit)
	l.RoomBytesBurst = max(l.RoomBytesBurst, 4*ChatLimit)
	return l
}

// The chat's four buckets' limits: a person's lines and bytes in a room,
// the room's lines and bytes.
func (l ChatLimits) playerLines() netlimit.Limit {
	return netlimit.Limit{Rate: l.PlayerLines, Per: time.Minute, Burst: l.PlayerBurst}
}

func (l ChatLimits) playerBytes() netlimit.Limit {
	return netlimit.Limit{Rate: l.PlayerBytes, Per: time.Minute, Burst: l.PlayerBytesBurst}
}

func (l ChatLimits) roomLines() netlimit.Limit {
	return netlimit.Limit{Rate: l.RoomLines, Per: time.Minute, Burst: l.RoomBurst}
}

func (l ChatLimits) roomBytes() netlimit.Limit {
	return netlimit.Limit{Rate: l.RoomBytes, Per: time.Minute, Burst: l.RoomBytesBurst}
}

// speaker is one person's buckets in a room.
type speaker struct{ lines, bytes netlimit.Bucket }

// chatState is a room's chat bookkeeping beside its lines (gameRecord.chat).
// It belongs to the room goroutine.
type chatState struct {
	room     speaker
	speakers map[string]*speaker
	// mutes[viewer] are the players viewer does not hear.
	mutes map[string][]string
	// off holds the seats whose players switched the spectators' chat off.
	off []int
}

// spectatorChat reports whether spectators may chat.
func (r *Room) spectatorChat() bool { return len(r.chatState.off) == 0 }

// chatRole is the role mem's player speaks and reads with: "player" when
// the player holds a seat, whatever its connection joined as.
func (r *Room) chatRole(playerID string) (string, int) {
	if s := r.seatOf(playerID); s >= 0 {
		return ChatRolePlayer, s
	}
	return ChatRoleSpectator, -1
}

// lineRole is the role of a kept line (lines kept before roles: a seat
// makes a player).
func lineRole(l protocol.ChatLine) string {
	if l.Role != "" {
		return l.Role
	}
	if l.Seat != nil {
		return ChatRolePlayer
	}
	return ChatRoleSpectator
}

// hears reports whether viewer (a player id) is sent a line by speaker
// with role role.
func (r *Room) hears(viewer, speaker, role string) bool {
	if role == ChatRoleSpectator {
		if vr, _ := r.chatRole(viewer); vr == ChatRolePlayer {
			return false
		}
	}
	return speaker == "" || !slices.Contains(r.chatState.mutes[viewer], speaker)
}

// chatFor is the kept chat as viewer reads it.
func (r *Room) chatFor(viewer string) []protocol.ChatLine {
	all := r.rec.chat.view()
	var out []protocol.ChatLine
	for i, l := range all {
		if !r.hears(viewer, l.By, lineRole(l)) {
			if out == nil {
				out = append(make([]protocol.ChatLine, 0, len(all)), all[:i]...)
			}
			continue
		}
		if out != nil {
			out = append(out, l)
		}
	}
	if out == nil {
		return all
	}
	return out
}

// takeChat takes a line of n bytes from the room's and the speaker's
// buckets, or says which limit it would pass and takes nothing.
func (r *Room) takeChat(player string, n int, now time.Time) *protocol.Error {
	lim := r.m.cfg.Chat
	pl, pb, rl, rb := lim.playerLines(), lim.playerBytes(), lim.roomLines(), lim.roomBytes()
	sp := r.chatState.speakers[player]
	if sp == nil {
		if len(r.chatState.speakers) >= ChatSpeakersCap {
			for id, s := range r.chatState.speakers {
				if s.lines.Full(now, pl) && s.bytes.Full(now, pb) {
					delete(r.chatState.speakers, id)
				}
			}
			if len(r.chatState.speakers) >= ChatSpeakersCap {
				return protocol.Errorf(protocol.CodeRateLimited, "too many people are chatting in room %s: wait a little", r.id)
			}
		}
		if r.chatState.speakers == nil {
			r.chatState.speakers = map[string]*speaker{}
		}
		sp = &speaker{}
		r.chatState.speakers[player] = sp
	}
	room, size := &r.chatState.room, float64(n)
	switch {
	case !sp.lines.Has(now, pl, 1):
		return protocol.Errorf(protocol.CodeRateLimited, "you chat too fast: at most %g lines a minute in a room", lim.PlayerLines)
	case !sp.bytes.Has(now, pb, size):
		return protocol.Errorf(protocol.CodeRateLimited, "you chat too much: at most %g bytes a minute in a room", lim.PlayerBytes)
	case !room.lines.Has(now, rl, 1) || !room.bytes.Has(now, rb, size):
		return protocol.Errorf(protocol.CodeRateLimited, "room %s's chat is busy: wait a little", r.id)
	}
	sp.lines.Take(now, pl, 1)
	sp.bytes.Take(now, pb, size)
	room.lines.Take(now, rl, 1)
	room.bytes.Take(now, rb, size)
	return nil
}

// chat says text in the room as mem's player.
func (r *Room) chat(mem Member, text string) *protocol.Error {
	if _, ok := r.members[mem.ConnID()]; !ok {
		return protocol.Errorf(protocol.CodeNotAPlayer, "join room %s to chat", r.id)
	}
	if utf8.RuneCountInString(text) > ChatLimit {
		return protocol.Errorf(protocol.CodeTooLarge, "a chat line has at most %d characters", ChatLimit)
	}
	text = CleanText(text)
	if text == "" {
		return protocol.Errorf(protocol.CodeBadRequest, "empty chat line")
	}
	player := mem.PlayerID()
	role, seat := r.chatRole(player)
	if role == ChatRoleSpectator && !r.spectatorChat() {
		return protocol.Errorf(protocol.CodeBadRequest, "the players switched the spectators' chat off in room %s", r.id)
	}
	now := r.now()
	if perr := r.takeChat(player, len(text), now); perr != nil {
		return perr
	}
	msg := protocol.Chat{Type: protocol.TypeRoomChat, Room: r.id, From: mem.PlayerName(), Role: role, By: player,
		Text: text, At: now.UnixMilli()}
	if seat >= 0 {
		msg.Seat = &seat
	}
	r.rec.chat.add(protocol.ChatLine{From: msg.From, Seat: msg.Seat, Role: role, By: player, Text: msg.Text, At: msg.At})
	r.persist.forceSnap = true // saved with the room's next change, which so writes the snapshot
	f := protocol.MustEncode(msg)
	var slow []Member
	for _, mb := range r.members {
		if r.hears(mb.m.PlayerID(), player, role) && !mb.m.Send(f) {
			slow = append(slow, mb.m)
		}
	}
	for _, m := range slow {
		r.drop(m)
	}
	return nil
}

// muteChat mutes (on) or unmutes another person in mem's player's view of
// the room. It answers room.chat.muted with the player's mutes; the mutes
// are kept with the room at its next save.
func (r *Room) muteChat(mem Member, target string, on bool, id json.RawMessage) *protocol.Error {
	if _, ok := r.members[mem.ConnID()]; !ok {
		return protocol.Errorf(protocol.CodeNotAPlayer, "join room %s to mute someone", r.id)
	}
	viewer := mem.PlayerID()
	if target == "" {
		return protocol.Errorf(protocol.CodeBadRequest, `missing field "player"`)
	}
	if target == viewer {
		return protocol.Errorf(protocol.CodeBadRequest, "you cannot mute yourself")
	}
	cur := r.chatState.mutes[viewer]
	i := slices.Index(cur, target)
	switch {
	case on && i < 0:
		if len(cur) >= ChatMutesCap {
			return protocol.Errorf(protocol.CodeTooLarge, "you mute %d people in this room, the most: unmute one first", len(cur))
		}
		if cur == nil && len(r.chatState.mutes) >= ChatMutersCap {
			return protocol.Errorf(protocol.CodeTooLarge, "too many people mute others in room %s", r.id)
		}
		if r.chatState.mutes == nil {
			r.chatState.mutes = map[string][]string{}
		}
		r.chatState.mutes[viewer] = append(cur, target)
	case !on && i >= 0:
		if cur = slices.Delete(cur, i, i+1); len(cur) == 0 {
			delete(r.chatState.mutes, viewer)
		} else {
			r.chatState.mutes[viewer] = cur
		}
	}
	r.persist.forceSnap = true // saved with the room's next change, which so writes the snapshot
	muted := slices.Clone(r.chatState.mutes[viewer])
	if muted == nil {
		muted = []string{}
	}
	f := protocol.MustEncode(protocol.ChatMuted{Type: protocol.TypeRoomChatMuted, ID: id, Room: r.id, Muted: muted})
	for _, mb := range r.members {
		if mb.m.PlayerID() == viewer {
			r.send(mb.m, f)
		}
	}
	return nil
}

// switchSpectatorChat records a seated player's wish that spectators may
// (on) or may not chat, saves it and publishes the room's state.
func (r *Room) switchSpectatorChat(mem Member, on bool) *protocol.Error {
	seat := r.seatOf(mem.PlayerID())
	if seat < 0 {
		return protocol.Errorf(protocol.CodeNotAPlayer, "only the players may switch the spectators' chat")
	}
	prev := slices.Clone(r.chatState.off)
	i := slices.Index(r.chatState.off, seat)
	switch {
	case !on && i < 0:
		r.chatState.off = append(r.chatState.off, seat)
		slices.Sort(r.chatState.off)
	case on && i >= 0:
		r.chatState.off = slices.Delete(r.chatState.off, i, i+1)
	default:
		r.sendState(mem)
		return nil
	}
	r.persist.mark()
	r.nextSeq()
	if err := r.persist.commit(context.Background(), logEntry{Kind: "spectator_chat", Seat: &seat}); err != nil {
		r.persist.rollback()
		r.chatState.off = prev
		return protocol.Errorf(protocol.CodeInternal, "could not save, try again")
	}
	r.broadcast()
	return nil
}

// chatSnap is the chat state a snapshot keeps.
type chatSnap struct {
	Mutes map[string][]string `json:"mutes,omitempty"`
	Off   []int               `json:"off,omitempty"`
}

// appendChatFields appends the snapshot's "chatState", when there is one.
func (r *Room) appendChatFields(b []byte) ([]byte, error) {
	if len(r.chatState.mutes) == 0 && len(r.chatState.off) == 0 {
		return b, nil
	}
	j, err := json.Marshal(chatSnap{Mutes: r.chatState.mutes, Off: r.chatState.off})
	if err != nil {
		return nil, err
	}
	b = append(b, `,"chatState":`...)
	return append(b, j...), nil
}

// restoreChat reads a snapshot's chat state, checking its bounds.
func (r *Room) restoreChat(s *chatSnap) error {
	if s == nil {
		return nil
	}
	if len(s.Mutes) > ChatMutersCap {
		return fmt.Errorf("chat mutes of %d people", len(s.Mutes))
	}
	for v, m := range s.Mutes {
		if len(m) > ChatMutesCap {
			return fmt.Errorf("chat mutes: %s mutes %d people", v, len(m))
		}
	}
	for _, seat := range s.Off {
		if seat < 0 || seat >= len(r.seats) {
			return fmt.Errorf("spectators' chat off by seat %d of %d", seat, len(r.seats))
		}
	}
	r.chatState.mutes, r.chatState.off = s.Mutes, s.Off
	return nil
}
