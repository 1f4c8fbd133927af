// "Your turn" notifications while the tab is hidden. The browser's
// permission is asked only when the player clicks the switch; without it
// the page stays silent (the tab title still says whose turn it is).
import { prefs } from './prefs.js';

export const supported = () => 'Notification' in window;
export const enabled = () => supported() && prefs.notify && Notification.permission === 'granted';

// toggle is called from a click: it asks for the permission when needed.
export async function toggle() {
  if (!supported()) return false;
  if (prefs.notify) { prefs.notify = false; return false; }
  let p = Notification.permission;
  if (p === 'default') { try { p = await Notification.requestPermission(); } catch { p = 'denied'; } }
  prefs.notify = p === 'granted';
  return prefs.notify;
}

// yourTurn shows a notification when the page is hidden; a click on it
// brings the tab back. tag replaces an older notification of the same room.
export function yourTurn(title, body, tag) {
  if (!enabled() || document.visibilityState !== 'hidden') return null;
  try {
    const n = new Notification(title, { body, tag, renotify: true, icon: '/assets/favicon.svg' });
    n.onclick = () => { window.focus(); n.close(); };
    return n;
  } catch { return null; }
}
