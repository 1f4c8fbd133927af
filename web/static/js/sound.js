// Sounds: a move, a capture, your turn, low time and the end of a game.
// The files are tiny synthesised WAVs (web/gensounds.go), fetched with the
// page and decoded on the first click or key (browsers allow audio only
// after a gesture). The mute switch is remembered (prefs.sound).
import { prefs } from './prefs.js';

export const SOUNDS = ['move', 'capture', 'turn', 'lowtime', 'end'];
const raw = new Map();     // name -> ArrayBuffer
const buffers = new Map(); // name -> AudioBuffer
let ctx = null;
let played = 0;

// fetchAll loads the files (part of the first load).
export function fetchAll() {
  for (const name of SOUNDS) {
    fetch(`/assets/sounds/${name}.wav`).then((r) => (r.ok ? r.arrayBuffer() : null)).then((b) => {
      if (b) { raw.set(name, b); decode(name); }
    }).catch(() => { /* no sound, no harm */ });
  }
}

function decode(name) {
  if (!ctx || !raw.has(name) || buffers.has(name)) return;
  const b = raw.get(name);
  raw.delete(name);
  ctx.decodeAudioData(b).then((buf) => buffers.set(name, buf)).catch(() => {});
}

function unlock() {
  if (ctx) { if (ctx.state === 'suspended') ctx.resume().catch(() => {}); return; }
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return;
  try { ctx = new AC(); } catch { return; }
  for (const name of [...raw.keys()]) decode(name);
}
addEventListener('pointerdown', unlock, { capture: true });
addEventListener('keydown', unlock, { capture: true });

// play plays a sound unless muted. The page records the last sound it
// played on <body data-sound="name:count"> (the browser tests read it).
export function play(name) {
  if (!prefs.sound) return;
  played++;
  document.body.dataset.sound = `${name}:${played}`;
  const buf = buffers.get(name);
  if (!ctx || !buf) return;
  try {
    const src = ctx.createBufferSource();
    src.buffer = buf;
    src.connect(ctx.destination);
    src.start();
  } catch { /* a closed context: stay silent */ }
}
