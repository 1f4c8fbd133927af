// The WebSocket connection to /ws: hello as the session cookie says
// (whoAmI makes the page someone first: a guest, or the account signed in),
// reconnect
// with exponential backoff and jitter, re-join the rooms this page follows,
// and detect gaps in a room's seq (then ask for the state again by joining).
// It asks for room.patch (hello feature "patch") and turns each patch, and
// each room.presence, into the room.state it makes of the last one, so the
// pages only ever see whole states.
import { store } from './dom.js';
import { follow, held } from './frames.js';

export { applyPatch, applyPresence } from './frames.js';

// whoAmI makes sure the page is someone before it connects, and says who
// ({id, name, account}): the HttpOnly session cookie, which the browser
// sends and no script reads, holds it. POST /api/guest answers the
// cookie's player when it is live, else makes a guest and its cookie;
// a guest token an older page kept in localStorage is moved into the
// cookie by the same call, then forgotten.
export async function whoAmI() {
  const ask = (token) => fetch('/api/guest', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(store.name ? { name: store.name } : {}),
  });
  const old = store.oldToken;
  let r = await ask(old);
  if (old) {
    store.forgetOldToken();
    if (!r.ok) r = await ask(''); // a token the server no longer knows
  }
  if (!r.ok) throw Object.assign(new Error(`POST /api/guest: ${r.status}`), { status: r.status });
  return r.json();
}

export class Conn {
  constructor() {
    this.ws = null;
    this.ready = false;
    this.everUp = false;
    this.attempt = 0;
    this.nextId = 1;
    this.handlers = new Map();   // type -> Set(fn)
    this.pending = new Map();    // id -> {resolve, reject, timer}
    this.commands = new Map();   // id -> type, for commands answered only by errors
    this.rooms = new Map();      // room -> frames.held(as): the last whole state, for patches
    this.watchingLobby = false;
    this.player = null;
    this.me = null;              // {id, name, account} of the session, from whoAmI
    this.timer = null;
  }

  on(type, fn) {
    if (!this.handlers.has(type)) this.handlers.set(type, new Set());
    this.handlers.get(type).add(fn);
    return () => this.handlers.get(type).delete(fn);
  }

  emit(type, msg) {
    for (const fn of [...(this.handlers.get(type) || [])]) {
      try { fn(msg); } catch (e) { console.warn('handler', type, e); }
    }
  }

  async connect() {
    clearTimeout(this.timer);
    if (!this.me) {
      try {
        this.me = await whoAmI();
        this.emit('me', this.me);
      } catch { this.retry(); return; }
    }
    const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws';
    let ws;
    try { ws = new WebSocket(url); } catch { this.retry(); return; }
    this.ws = ws;
    ws.onopen = () => {
      // No token: the upgrade carried the session cookie. A guest's chosen
      // name goes with it; an account's name is its own.
      const hello = { type: 'hello', features: ['patch'] };
      if (!this.me.account && store.name) hello.name = store.name;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch { return; }
      if (m && typeof m.type === 'string') this.dispatch(m);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      const was = this.ready;
      this.ready = false;
      for (const [, p] of this.pending) { clearTimeout(p.timer); p.reject(new Error('connection lost')); }
      this.pending.clear();
      if (was || this.everUp) this.emit('down', {});
      this.retry();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  retry() {
    // 250 ms doubling to 8 s, with full jitter in the upper half so that a
    // restarted server is not hit by every browser at the same instant.
    const base = Math.min(8000, 250 * 2 ** this.attempt);
    this.attempt++;
    const delay = base / 2 + Math.random() * base / 2;
    this.timer = setTimeout(() => this.connect(), delay);
  }

  dispatch(m) {
    if (m.type === 'room.patch' || m.type === 'room.presence') {
      // Made into the room.state it means; a patch that does not apply
      // asks for the whole state again (frames.js).
      const r = this.rooms.get(m.room);
      if (!r) return;
      const f = this.followed(r, m);
      if (f) { this.emit('room.state', f); this.emit('*', f); }
      return;
    }
    if (m.type === 'error' && !this.ready && this.ws) {
      // The hello was refused: the session ended (then the page becomes
      // someone again first), or the server could not read our rooms. Go
      // round again, with backoff, rather than stay unseated.
      if (m.code === 'unauthorized') this.me = null;
      this.ws.close();
      return;
    }
    if (m.type === 'player.renamed' && m.player) this.player = m.player;
    if (m.type === 'welcome') {
      this.player = m.player || null;
      this.myRooms = m.rooms || []; // the ids of our unfinished rooms, as of this hello
      this.ready = true;
      this.everUp = true;
      this.attempt = 0;
      if (this.watchingLobby) this.raw({ type: 'lobby.watch' });
      // A restarted server may count seq from its last snapshot, lower than
      // what we saw: accept whatever the re-join answers.
      for (const [room, r] of this.rooms) { this.rooms.set(room, held(r.as)); this.raw({ type: 'room.join', room, as: r.as }); }
      this.emit('up', m);
    }
    if (m.type === 'room.state' && this.rooms.has(m.room) && !this.followed(this.rooms.get(m.room), m)) return;
    if (m.type === 'error' && m.id != null && this.commands.has(m.id)) {
      m.command = this.commands.get(m.id);
      this.commands.delete(m.id);
    }
    if (m.id != null && this.pending.has(m.id)) {
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      clearTimeout(p.timer);
      if (m.type === 'error') p.reject(Object.assign(new Error(m.message || m.code), { code: m.code, msg: m }));
      else p.resolve(m);
    }
    this.emit(m.type, m);
    this.emit('*', m);
  }

  // followed passes a frame of a followed room through frames.follow: it
  // keeps the room's new state, asks for the whole state again when told
  // to, and returns the room.state to hand on (null: none).
  followed(r, m) {
    const f = follow(r, m);
    this.rooms.set(m.room, f.held);
    if (f.rejoin) this.raw({ type: 'room.join', room: m.room, as: r.as });
    return f.state;
  }

  raw(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  // send delivers msg if the connection is up, and reports whether it did.
  send(msg) {
    if (!this.ready) return false;
    return this.raw(msg);
  }

  // command sends msg with an id for commands the server answers with a
  // broadcast (room.move, room.resign...) or, when refused, an error that
  // carries the id (the error event then has .command = msg.type).
  command(msg) {
    if (!this.ready) return false;
    const id = `c${this.nextId++}`;
    this.commands.set(id, msg.type);
    if (this.commands.size > 500) this.commands.delete(this.commands.keys().next().value);
    return this.raw({ ...msg, id });
  }

  // request sends msg with an id and resolves with the reply that carries it.
  request(msg, timeout = 10000) {
    return new Promise((resolve, reject) => {
      if (!this.ready) { reject(Object.assign(new Error('not connected'), { code: 'offline' })); return; }
      const id = String(this.nextId++);
      const timer = setTimeout(() => { this.pending.delete(id); reject(new Error('no answer from the server')); }, timeout);
      this.pending.set(id, { resolve, reject, timer });
      this.raw({ ...msg, id });
    });
  }

  follow(room, as) {
    this.rooms.set(room, held(as));
    if (this.ready) this.raw({ type: 'room.join', room, as });
  }

  unfollow(room) {
    if (this.rooms.delete(room)) this.send({ type: 'room.leave', room });
  }

  // rename asks the server for a new name (player.rename); a server that
  // does not know the message gets the name with the next hello instead.
  async rename(name) {
    store.name = name;
    try {
      const m = await this.request({ type: 'player.rename', name });
      this.emit('renamed', m);
      return m.player;
    } catch (e) {
      if (e.code === 'bad_request' && /unknown message type/.test(e.message) && this.ws) this.ws.close();
      throw e;
    }
  }

  // reidentify is for after a sign-in, a sign-up or a sign-out: the page
  // asks who it is again and connects anew as that player (its rooms are
  // joined again on the welcome).
  async reidentify() {
    this.me = null;
    this.player = null;
    try { this.me = await whoAmI(); } catch { /* connect tries again */ }
    if (this.me) this.emit('me', this.me);
    const ws = this.ws;
    if (ws) { this.ws = null; this.ready = false; ws.onclose = null; ws.close(); }
    this.attempt = 0;
    this.connect();
  }

  watchLobby(on) {
    this.watchingLobby = on;
    this.send({ type: on ? 'lobby.watch' : 'lobby.unwatch' });
  }
}
