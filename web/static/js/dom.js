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

export const $ = (sel, root = document) => root.querySelector(sel);

// nameTag is a name (a person's, a computer's) in an element that never
// breaks it mid-word: it wraps between words, and a word too long for the
// box ends in an ellipsis (CSS .nm). The whole name is its title (hover)
// and its text (screen readers); a tap on a cut name shows it whole
// (wholeNames: touch screens have no hover).
export const nameTag = (tag, cls, name, attrs = {}) => h(tag, { ...attrs, class: `nm ${cls}`, title: name }, name);

// wholeNames lets a tap (or a long press) on a cut name (.nm) show it
// whole, and another tap cut it again; names inside links and buttons
// keep their click.
export function wholeNames(root = document) {
  const toggle = (e) => {
    const el = e.target.closest && e.target.closest('.nm');
    if (!el || el.closest('a, button, label')) return false;
    const cut = el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
    if (!cut && !el.classList.contains('whole')) return false;
    el.classList.toggle('whole');
    return true;
  };
  root.addEventListener('click', toggle);
  root.addEventListener('contextmenu', (e) => { if (toggle(e)) e.preventDefault(); });
}

// put replaces el's children with kids, skipping null, undefined and false
// (replaceChildren itself would write them as the text "null").
export function put(el, ...kids) {
  el.replaceChildren(...kids.flat(Infinity).filter((k) => k != null && k !== false)
    .map((k) => (k instanceof Node ? k : document.createTextNode(String(k)))));
  return el;
}

const get = (k) => { try { return localStorage.getItem(k) || ''; } catch { return ''; } };
const save = (k, v) => { try { localStorage.setItem(k, v); } catch { /* private mode */ } };

// Local preferences of identity. Who this page is lives in the server's
// HttpOnly session cookie, which no script reads (ws.js, whoAmI); here is
// only `name`, set when a guest chose one (hello sends it), and `asked`,
// once the page has asked for it. `oldToken` is the guest token an older
// page kept here: read once to move it into the cookie, then forgotten.
export const store = {
  get name() { return get('tabuleiro.name'); },
  set name(v) { save('tabuleiro.name', v); },
  get oldToken() { return get('tabuleiro.token'); },
  forgetOldToken() { try { localStorage.removeItem('tabuleiro.token'); } catch { /* private mode */ } },
  get asked() { return get('tabuleiro.asked') === '1' || !!this.name; },
  set asked(v) { save('tabuleiro.asked', v ? '1' : ''); },
};

export function fmtClock(ms) {
  if (ms == null) return '';
  ms = Math.max(0, ms);
  const t = Math.ceil(ms / 1000);
  const m = Math.floor(t / 60), sec = t % 60;
  if (ms < 10000) return `0:0${Math.floor(ms / 1000)}.${Math.floor((ms % 1000) / 100)}`;
  return `${m}:${String(sec).padStart(2, '0')}`;
}

// Icons drawn as SVG paths (the fonts of many phones lack ⏮ and ⏭).
const ICONS = {
  first: 'M5 4h2v16H5zM20 4v16L9 12z',
  prev: 'M17 4v16L6 12z',
  next: 'M7 4v16l11-8z',
  last: 'M4 4v16l11-8zM17 4h2v16h-2z',
  soundOn: 'M4 9h4l5-4v14l-5-4H4zM16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12',
  soundOff: 'M4 9h4l5-4v14l-5-4H4zM16 9l6 6M22 9l-6 6',
  sun: 'M12 7a5 5 0 1 0 0 10 5 5 0 0 0 0-10zM12 1v3M12 20v3M1 12h3M20 12h3M4.2 4.2l2.1 2.1M17.7 17.7l2.1 2.1M4.2 19.8l2.1-2.1M17.7 6.3l2.1-2.1',
  moon: 'M20 14.5A8.5 8.5 0 0 1 9.5 4a8.5 8.5 0 1 0 10.5 10.5z',
  auto: 'M12 3a9 9 0 1 0 0 18zM12 3a9 9 0 0 1 0 18',
  bell: 'M6 16V11a6 6 0 0 1 12 0v5l2 2H4zM10 20a2 2 0 0 0 4 0',
  bellOff: 'M6 16V11a6 6 0 0 1 12 0v5l2 2H4zM10 20a2 2 0 0 0 4 0M3 3l18 18',
  edit: 'M4 20h4L19 9l-4-4L4 16zM14 6l4 4',
};
const STROKED = new Set(['soundOn', 'soundOff', 'sun', 'auto', 'bell', 'bellOff', 'edit']);

export function icon(name) {
  const filled = !STROKED.has(name);
  return s('svg', { viewBox: '0 0 24 24', class: `icon icon-${name}`, 'aria-hidden': 'true', focusable: 'false' },
    s('path', { d: ICONS[name], class: filled ? 'fill' : 'stroke' }));
}
