// The player's settings, kept in this browser: theme, sound, notifications.
const get = (k, d) => { try { return localStorage.getItem(k) ?? d; } catch { return d; } };
const set = (k, v) => { try { localStorage.setItem(k, v); } catch { /* private mode */ } };

export const THEMES = ['auto', 'light', 'dark'];

export const prefs = {
  // theme is "auto" (follow prefers-color-scheme), "light" or "dark".
  get theme() { const v = get('tabuleiro.theme', 'auto'); return THEMES.includes(v) ? v : 'auto'; },
  set theme(v) { set('tabuleiro.theme', v); applyTheme(); },
  get sound() { return get('tabuleiro.sound', 'on') !== 'off'; },
  set sound(on) { set('tabuleiro.sound', on ? 'on' : 'off'); },
  // notify: the player asked for "your turn" notifications (the browser's
  // permission is asked at that click, never before).
  get notify() { return get('tabuleiro.notify', 'off') === 'on'; },
  set notify(on) { set('tabuleiro.notify', on ? 'on' : 'off'); },
};

// dark tells whether the page is dark now.
export function dark() {
  const t = prefs.theme;
  if (t !== 'auto') return t === 'dark';
  return matchMedia('(prefers-color-scheme: dark)').matches;
}

// applyTheme sets <html data-theme> (absent: follow the system).
export function applyTheme() {
  const t = prefs.theme;
  if (t === 'auto') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = t;
}
