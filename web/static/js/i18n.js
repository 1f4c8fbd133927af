// The page's words. Every string the page shows comes from a message
// catalogue, one JSON file a language under /assets/i18n/ (en.json,
// pt-PT.json, pt-BR.json, ...). The server lists the catalogues it embeds
// in the page's <meta name="languages" content="en:English pt-BR:...">, so
// adding a language is adding one file. The choice follows the browser
// until the player picks one with the switch; it is remembered, and
// <html lang> follows it.
const KEY = 'tabuleiro.lang';
// A browser language we have only in regional forms ("pt", "pt-AO") gets
// the form named here; a stored choice of a language since split ("pt",
// before pt-PT and pt-BR) is read as that form too.
const REGION = { pt: 'pt-PT' };
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
// the browser's languages we have, else en.
export function pick() {
  return choose(languages().map((l) => l.code), safeGet(KEY), navigator.languages || [navigator.language || 'en']);
}

// choose is pick's rule over the catalogues we have, the stored choice and
// the browser's languages: a language we have exactly (case aside: pt-BR
// for "pt-br"), else its base language (en for "en-GB"), else the regional
// form REGION names for that base (pt-PT for "pt" and "pt-AO"), else the
// first regional form we have of it.
export function choose(have, stored, wanted) {
  const find = (code) => {
    if (!code) return null;
    const w = String(code).toLowerCase(), base = w.split('-')[0];
    const exact = have.find((c) => c.toLowerCase() === w) || have.find((c) => c.toLowerCase() === base);
    if (exact) return exact;
    if (REGION[base] && have.includes(REGION[base])) return REGION[base];
    return have.find((c) => c.toLowerCase().split('-')[0] === base) || null;
  };
  const mine = find(stored);
  if (mine) return mine;
  for (const want of wanted) { const c = find(want); if (c) return c; }
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
// params. A message may be {"one": ..., "other": ...} (and "zero", "few",
// ... where the language has them): params.n chooses (pluralForm).
// A missing key shows itself, so that a test or a reader sees it.
export function t(key, params) {
  let m = cat[key];
  if (m == null) return key;
  if (typeof m === 'object') m = pluralForm(m, Number(params && params.n) || 0, plural);
  if (!params) return m;
  return m.replace(/\{(\w+)\}/g, (all, k) => (params[k] == null ? all : String(params[k])));
}

// pluralForm picks a plural message's form for n: "zero" for 0 when the
// message has one, else "other" for 0 (never "one": the Brazilian rule of
// Intl puts 0 with 1, and "0 partida" reads wrong), else the form rules
// (Intl.PluralRules) name, else "other".
export function pluralForm(m, n, rules) {
  if (n === 0) return m.zero ?? m.other;
  return m[rules.select(n)] ?? m.other;
}

// tNodes is t for a message some of whose params are DOM nodes (a name in
// its own box, dom.js nameTag): the message as a list of strings and
// those nodes, for h() or replaceChildren.
export function tNodes(key, params) {
  const mark = {};
  for (const [k, v] of Object.entries(params)) mark[k] = typeof v === 'object' && v && v.nodeType ? `\u0000${k}\u0000` : v;
  return t(key, mark).split(/\u0000(\w+)\u0000/).map((s, i) => (i % 2 ? params[s] : s)).filter((s) => s !== '');
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
export const date = (ms) => new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(ms));
export const time = (ms) => new Intl.DateTimeFormat(lang, { hour: '2-digit', minute: '2-digit' }).format(new Date(ms));
