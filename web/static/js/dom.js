// Tiny DOM helpers. Text is always inserted as text nodes: nothing that comes
// from the network (names, chat, room ids) ever goes through innerHTML.
const SVGNS = 'http://www.w3.org/2000/svg';

function fill(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'text') el.textContent = String(v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// h('button', {class: 'x', onclick: f}, 'text', child...)
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

// s('circle', {cx: 1}) creates an SVG element.
export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVGNS, tag), attrs, children);
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

export const $ = (sel, root = document) => root.querySelector(sel);

// Local identity: the name the player chose and the token the server gave.
export const store = {
  get name() { return localStorage.getItem('tabuleiro.name') || ''; },
  set name(v) { localStorage.setItem('tabuleiro.name', v); },
  get token() { return localStorage.getItem('tabuleiro.token') || ''; },
  set token(v) { if (v) localStorage.setItem('tabuleiro.token', v); },
};

export function fmtClock(ms) {
  if (ms == null) return '';
  ms = Math.max(0, ms);
  const t = Math.ceil(ms / 1000);
  const m = Math.floor(t / 60), sec = t % 60;
  if (ms < 10000) return `0:0${Math.floor(ms / 1000)}.${Math.floor((ms % 1000) / 100)}`;
  return `${m}:${String(sec).padStart(2, '0')}`;
}
