// Tabuleiro's browser client: the header (my games, leaderboards, name, sign in,
// language, theme, sound), the router (the lobby at /, a room at /r/<room>,
// a finished game's page at /g/<room>, my finished games at /games, a
// tournament at /t/<id>, a new one at /t/new, the account at /account, a
// player's profile at /@/<name>, the leaderboards at /leaderboard) and
// the name dialog.
// Anyone can look at the lobby and play at once: the page is a guest the
// server names (its session cookie), the name is asked for only when a
// guest first sits down (and then only once; dismissing it plays on as
// the guest), and making an account or signing in is one link away.
import { h, $, store, icon, wholeNames } from './dom.js';
import { personName, isGuestName } from './labels.js';
import { Conn } from './ws.js';
import * as i18n from './i18n.js';
import { t } from './i18n.js';
import { prefs, applyTheme, THEMES } from './prefs.js';
import * as sound from './sound.js';

// The pages, each loaded the first time it is shown, so that the first load
// carries the header and the page asked for, not every page (web_test.go
// weighs the first load of each page). A page is fn(main, env, ...args).
const pages = {
  lobby: () => import('./lobby.js').then((m) => (main, env) => m.lobbyView(main, env)),
  room: () => import('./room.js').then((m) => (main, env, room, record) => m.roomView(main, room, { ...env, record })),
  torneio: () => import('./torneio.js').then((m) => (main, env, id) => m.torneioView(main, id, env)),
  torneioNew: () => import('./torneionew.js').then((m) => (main, env) => m.torneioNewView(main, env)),
  games: () => import('./mygames.js').then((m) => (main, env) => m.myGamesView(main, env)),
  account: () => import('./account.js').then((m) => (main, env) => m.accountView(main, { ...env, askName })),
  profile: () => import('./profile.js').then((m) => (main, env, name) => m.profileView(main, env, name)),
  leaderboard: () => import('./leaderboard.js').then((m) => (main, env, game, variant) => m.leaderboardView(main, env, game, variant)),
};

// which is the page a path shows and its arguments: [page, ...args].
function which(path) {
  const m = path.match(/^\/([rg])\/([A-Za-z0-9_-]{1,64})$/);
  if (m) return ['room', m[2], m[1] === 'g'];
  if (path === '/t/new') return ['torneioNew'];
  if (path === '/games') return ['games'];
  if (path === '/account') return ['account'];
  const tm = path.match(/^\/t\/([A-Za-z0-9_-]{1,64})$/);
  if (tm) return ['torneio', tm[1]];
  // A profile: an account's name, or a player's id (a bot account's: "bot.…").
  const pm = path.match(/^\/@\/([A-Za-z0-9_.-]{1,64})$/);
  if (pm) return ['profile', pm[1]];
  if (path === '/leaderboard') return ['leaderboard'];
  const lm = path.match(/^\/leaderboard\/([a-z0-9_-]{1,32})\/([A-Za-z0-9_-]{1,32})$/);
  if (lm) return ['leaderboard', lm[1], lm[2]];
  return ['lobby'];
}

const conn = new Conn();
let current = null; // the view on screen: {destroy(), relabel()}

// ---------- name ----------
function showMe() {
  const account = !!(conn.me && conn.me.account);
  const given = (conn.player && conn.player.name) || (conn.me && conn.me.name) || (account ? '' : store.name);
  const name = given ? personName(given) : '';
  $('#me-name').textContent = name || '';
  $('#me-name').title = name || '';
  $('#me').hidden = !name;
  $('#me').dataset.account = account ? '1' : '';
  $('#me').title = t(account ? 'account.title' : 'name.change');
  $('#account-link').hidden = account;
}

// askName opens the name dialog and resolves when it closes: with the new
// name, or null when it was dismissed (Esc, "Not now"). It never leaves the
// page waiting.
function askName({ sitting = false } = {}) {
  const dlg = $('#name-dialog'), form = $('#name-form'), input = $('#name-input');
  $('#name-title').textContent = t(sitting ? 'name.sitTitle' : 'name.title');
  $('#name-text').textContent = t(sitting ? 'name.sitText' : 'name.text');
  // A guest's default name shows in the page's language; saved as it
  // is, it stays the server's key (labels.js, personName).
  const given = (conn.player && conn.player.name) || store.name || '';
  const shown = isGuestName(given) ? personName(given) : given;
  input.value = shown;
  return new Promise((resolve) => {
    let done = false;
    const finish = async (name) => {
      if (done) return;
      done = true;
      form.removeEventListener('submit', onSubmit);
      dlg.removeEventListener('close', onClose);
      $('#name-skip').removeEventListener('click', onSkip);
      if (dlg.open) dlg.close();
      store.asked = true;
      if (name && name !== shown && (!conn.player || name !== conn.player.name)) {
        try { await conn.rename(name); } catch { store.name = name; }
      }
      showMe();
      resolve(name);
    };
    const onSubmit = (e) => { e.preventDefault(); finish(input.value.trim().slice(0, 32) || null); };
    const onSkip = () => finish(null);
    const onClose = () => finish(null);
    form.addEventListener('submit', onSubmit);
    $('#name-skip').addEventListener('click', onSkip);
    dlg.addEventListener('close', onClose);
    dlg.showModal();
    input.select();
  });
}
// ensureNamed asks once, before the first seat; afterwards it resolves at once.
const ensureNamed = () => (store.asked ? Promise.resolve() : askName({ sitting: true }));

// ---------- routing ----------
function navigate(url) {
  if (location.pathname + location.search !== url) history.pushState(null, '', url);
  route();
}
let routed = 0; // counts route() calls: a page that loads after a later call is not shown
async function route() {
  const n = ++routed;
  if (current && current.destroy) current.destroy();
  current = null;
  const main = $('#main');
  main.replaceChildren(h('p', { class: 'loading' }, t('common.loading')));
  $('.nav-games').toggleAttribute('aria-current', location.pathname === '/games');
  $('.nav-board').toggleAttribute('aria-current', location.pathname.startsWith('/leaderboard'));
  const env = { conn, navigate, ensureNamed };
  const [page, ...args] = which(location.pathname);
  let view;
  try {
    view = await pages[page]();
  } catch {
    // The module did not come (offline, a new deployment): a reload fetches it again.
    if (n === routed) main.replaceChildren(h('p', { class: 'empty' }, t('common.notLoaded')));
    return;
  }
  if (n !== routed) return;
  main.replaceChildren();
  current = view(main, env, ...args);
}
document.addEventListener('click', (e) => {
  const a = e.target.closest && e.target.closest('a[data-nav]');
  if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  navigate(a.getAttribute('href'));
});
addEventListener('popstate', route);

// ---------- header switches ----------
function headerControls() {
  const sel = $('#lang');
  sel.replaceChildren(...i18n.languages().map((l) => h('option', { value: l.code, lang: l.code }, l.name)));
  sel.value = i18n.current();
  sel.addEventListener('change', () => i18n.load(sel.value, { remember: true }).catch(() => {}));

  const theme = $('#theme');
  const paintTheme = () => {
    const v = prefs.theme;
    theme.replaceChildren(icon({ auto: 'auto', light: 'sun', dark: 'moon' }[v]), h('span', { class: 'btn-text' }, t(`theme.${v}`)));
    theme.setAttribute('aria-label', t('theme.aria', { theme: t(`theme.${v}`) }));
    theme.dataset.theme = v;
  };
  theme.addEventListener('click', () => { prefs.theme = THEMES[(THEMES.indexOf(prefs.theme) + 1) % THEMES.length]; paintTheme(); });

  const snd = $('#sound');
  const paintSound = () => {
    const on = prefs.sound;
    snd.replaceChildren(icon(on ? 'soundOn' : 'soundOff'));
    snd.setAttribute('aria-pressed', on ? 'true' : 'false');
    snd.setAttribute('aria-label', t(on ? 'sound.on' : 'sound.off'));
    snd.title = t(on ? 'sound.on' : 'sound.off');
  };
  snd.addEventListener('click', () => { prefs.sound = !prefs.sound; paintSound(); });

  // A guest's name changes in the dialog; an account's is its sign-in
  // name: the button opens its page.
  $('#me').addEventListener('click', () => (conn.me && conn.me.account ? navigate('/account') : askName()));
  i18n.onChange(() => { paintTheme(); paintSound(); showMe(); sel.value = i18n.current(); if (current && current.relabel) current.relabel(); });
  paintTheme(); paintSound();
}

// ---------- start ----------
conn.on('down', () => { $('#conn-bar').hidden = false; document.body.classList.add('offline'); });
conn.on('up', () => { $('#conn-bar').hidden = true; document.body.classList.remove('offline'); showMe(); });
conn.on('renamed', showMe);
conn.on('me', showMe);

(async function start() {
  applyTheme();
  wholeNames();
  try { await i18n.load(i18n.pick()); } catch { /* the page's English words stay */ }
  headerControls();
  sound.fetchAll();
  showMe();
  conn.connect();
  route();
})();
