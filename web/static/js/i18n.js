// The page's words. Every string the page shows comes from a message
// catalogue, one JSON file a language under /assets/i18n/ (en.json,
// pt.json, ...). The server lists the catalogues it embeds in the page's
// <meta name="languages" content="en:English pt:Português">, so adding a
// language is adding one file. The choice follows the browser until the
// player picks one with the switch; it is remembered, and <html lang>
// follows it.
const KEY = 'tabuleiro.lang';
let lang = 'en';
let cat = {};
let plural = new Intl.PluralRules('en');
const listeners = new Set();

// languages lists the catalogues the server embeds: [{code, name}].
export function languages() {
  const meta = document.querySelector('meta[name="languages"]');
  const out = [];
  for (const part of (meta && meta.content ? meta.content : 'en:English').split(/\s+/)) {
    const i = part.indexOf(':');
    if (i > 0) out.push({ code: part.slice(0, i), name: part.slice(i + 1).replace(/_/g, ' ') });
  }
  return out;
}

// pick returns the language to use: the stored choice, else the first of
// the browser's languages we have (pt-BR and pt-PT both find pt), else en.
export function pick() {
  const have = languages().map((l) => l.code);
  const stored = safeGet(KEY);
  if (stored && have.includes(stored)) return stored;
  for (const want of navigator.languages || [navigator.language || 'en']) {
    const w = String(want).toLowerCase();
    if (have.includes(w)) return w;
    const base = w.split('-')[0];
    if (have.includes(base)) return base;
  }
  return have.includes('en') ? 'en' : have[0] || 'en';
}

function safeGet(k) { try { return localStorage.getItem(k); } catch { return null; } }

// load fetches and installs a catalogue; remember stores the choice.
export async function load(code, { remember = false } = {}) {
  const r = await fetch(`/assets/i18n/${code}.json`);
  if (!r.ok) throw new Error(`no catalogue for ${code}`);
  cat = await r.json();
  lang = code;
  try { plural = new Intl.PluralRules(code); } catch { plural = new Intl.PluralRules('en'); }
  document.documentElement.lang = cat['lang.tag'] || code;
  if (remember) { try { localStorage.setItem(KEY, code); } catch { /* private mode */ } }
  localize(document);
  for (const fn of [...listeners]) fn(code);
}

export const current = () => lang;
export const onChange = (fn) => { listeners.add(fn); return () => listeners.delete(fn); };

// has tells whether the catalogue has key.
export const has = (key) => Object.prototype.hasOwnProperty.call(cat, key);

// t returns the message for key with {name} placeholders filled from
// params. A message may be {"one": ..., "other": ...}: params.n chooses.
// A missing key shows itself, so that a test or a reader sees it.
export function t(key, params) {
  let m = cat[key];
  if (m == null) return key;
  if (typeof m === 'object') m = m[plural.select(Number(params && params.n) || 0)] ?? m.other;
  if (!params) return m;
  return m.replace(/\{(\w+)\}/g, (all, k) => (params[k] == null ? all : String(params[k])));
}

// tOr returns t(key) when the catalogue has it, else fallback.
export const tOr = (key, fallback, params) => (has(key) ? t(key, params) : fallback);

// localize fills the elements under root that name a message:
// data-i18n (text), data-i18n-aria (aria-label), data-i18n-title,
// data-i18n-placeholder.
export function localize(root) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-aria]')) el.setAttribute('aria-label', t(el.dataset.i18nAria));
  for (const el of root.querySelectorAll('[data-i18n-title]')) el.setAttribute('title', t(el.dataset.i18nTitle));
  for (const el of root.querySelectorAll('[data-i18n-placeholder]')) el.setAttribute('placeholder', t(el.dataset.i18nPlaceholder));
}

// Numbers and times in the page's language.
export const num = (n) => new Intl.NumberFormat(lang).format(n);
export const time = (ms) => new Intl.DateTimeFormat(lang, { hour: '2-digit', minute: '2-digit' }).format(new Date(ms));
