// The account page (/account): a guest makes an account of itself (keeping
// its games, bots and rooms) or signs in to one; an account signs out here
// or everywhere, changes its password, downloads its data or closes
// itself (docs/protocol.md, "Accounts"). The session is an HttpOnly
// cookie: no request here carries a secret, and no answer holds one.
import { h, put } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';
import { personName } from './labels.js';

// The rules the server keeps (players/names.go), checked here first so
// that the page says what to change in the player's language.
const NAME_RE = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,30}[A-Za-z0-9])?$/;
const PASSWORD_MIN = 8;

// why is the words for a refused request (api's error).
function why(e) {
  switch (e.code) {
    case 'unauthorized': return t('account.errWrong');
    case 'name_taken': return t('account.errTaken');
    case 'rate_limited': return t('account.errLimited', { min: Math.max(1, Math.ceil((e.retryAfter || 60) / 60)) });
    case 'busy': case 'internal': case undefined: case '': return t('account.errBusy');
    case 'forbidden': return t('account.errForbidden');
  }
  return e.message || t('account.errBusy');
}

// field is a labelled input.
function field(label, attrs) {
  return h('label', { class: 'field' }, h('span', {}, label), h('input', attrs));
}

export function accountView(main, { conn, navigate, askName }) {
  const root = h('section', { class: 'account', 'aria-labelledby': 'account-h' });
  main.append(root);
  let gone = false;
  const offs = [];

  function render() {
    if (gone) return;
    const me = conn.me;
    if (!me) {
      put(root, h('p', { class: 'loading' }, t('common.loading')));
      return;
    }
    const say = h('p', { class: 'account-msg', role: 'alert', 'aria-live': 'assertive' });
    put(root, h('h1', { id: 'account-h' }, t('account.title')), ...(me.account ? accountParts(me, say) : guestParts(me, say)), say);
  }

  // busy disables a form's button while its request runs.
  async function submit(form, say, run) {
    const btn = form.querySelector('button[type=submit]');
    btn.disabled = true;
    say.textContent = '';
    say.classList.remove('ok');
    try { await run(); } catch (e) { say.textContent = why(e); } finally { btn.disabled = false; }
  }

  function guestParts(me, say) {
    const signup = h('form', { class: 'account-form', id: 'signup', 'aria-labelledby': 'signup-h', novalidate: true },
      h('h2', { id: 'signup-h' }, t('account.signUp')),
      h('p', { class: 'muted' }, t('account.signUpText')),
      field(t('account.name'), { name: 'name', autocomplete: 'username', maxlength: 32, required: true, value: NAME_RE.test(me.name) ? me.name : '' }),
      field(t('account.password'), { name: 'password', type: 'password', autocomplete: 'new-password', minlength: PASSWORD_MIN, required: true }),
      h('p', { class: 'muted hint' }, t('account.rules')),
      h('div', { class: 'row' }, h('button', { type: 'submit', class: 'primary' }, t('account.create'))));
    signup.addEventListener('submit', (e) => {
      e.preventDefault();
      const name = signup.elements.name.value.trim(), password = signup.elements.password.value;
      if (!NAME_RE.test(name)) { say.textContent = t('account.errName'); return; }
      if (password.length < PASSWORD_MIN || password.toLowerCase() === name.toLowerCase()) { say.textContent = t('account.errPassword'); return; }
      submit(signup, say, async () => {
        await api('/api/account', { method: 'POST', body: { name, password } });
        await conn.reidentify();
        render();
      });
    });
    const signin = h('form', { class: 'account-form', id: 'signin', 'aria-labelledby': 'signin-h', novalidate: true },
      h('h2', { id: 'signin-h' }, t('account.signIn')),
      field(t('account.name'), { name: 'name', autocomplete: 'username', maxlength: 32, required: true }),
      field(t('account.password'), { name: 'password', type: 'password', autocomplete: 'current-password', required: true }),
      h('div', { class: 'row' }, h('button', { type: 'submit', class: 'primary' }, t('account.signIn'))));
    signin.addEventListener('submit', (e) => {
      e.preventDefault();
      const name = signin.elements.name.value.trim(), password = signin.elements.password.value;
      submit(signin, say, async () => {
        await api('/api/session', { method: 'POST', body: { name, password } });
        await conn.reidentify();
        render();
      });
    });
    const rename = h('button', { type: 'button', class: 'link', id: 'guest-rename' }, t('name.change'));
    rename.addEventListener('click', () => askName().then(render));
    return [
      h('p', { class: 'account-who' }, t('account.guest', { name: personName(me.name) }), ' ', rename),
      h('p', { class: 'muted' }, t('account.guestText')),
      h('div', { class: 'account-forms' }, signup, signin),
    ];
  }

  function accountParts(me, say) {
    const out = h('button', { type: 'button', id: 'signout' }, t('account.signOut'));
    out.addEventListener('click', () => leave('/api/session', out, say));
    const everywhere = h('button', { type: 'button', id: 'signout-all' }, t('account.signOutAll'));
    everywhere.addEventListener('click', () => leave('/api/sessions', everywhere, say));
    const exp = h('a', { href: '/api/account/export', download: `tabuleiro-${me.name}.json`, class: 'button', id: 'export' }, t('account.export'));

    const pw = h('form', { class: 'account-form', id: 'password', 'aria-labelledby': 'password-h', novalidate: true },
      h('h2', { id: 'password-h' }, t('account.changePassword')),
      h('input', { type: 'text', name: 'username', autocomplete: 'username', value: me.name, hidden: true, readonly: true }),
      field(t('account.oldPassword'), { name: 'old', type: 'password', autocomplete: 'current-password', required: true }),
      field(t('account.newPassword'), { name: 'new', type: 'password', autocomplete: 'new-password', minlength: PASSWORD_MIN, required: true }),
      h('p', { class: 'muted hint' }, t('account.changeText')),
      h('div', { class: 'row' }, h('button', { type: 'submit', class: 'primary' }, t('account.changePassword'))));
    pw.addEventListener('submit', (e) => {
      e.preventDefault();
      const old = pw.elements.old.value, next = pw.elements.new.value;
      if (next.length < PASSWORD_MIN || next.toLowerCase() === me.name.toLowerCase()) { say.textContent = t('account.errPassword'); return; }
      submit(pw, say, async () => {
        await api('/api/account/password', { method: 'POST', body: { old, new: next } });
        pw.reset();
        say.classList.add('ok');
        say.textContent = t('account.changed');
      });
    });

    const close = h('form', { class: 'account-form danger', id: 'close', 'aria-labelledby': 'close-h', novalidate: true },
      h('h2', { id: 'close-h' }, t('account.close')),
      h('p', { class: 'muted' }, t('account.closeText')),
      h('input', { type: 'text', name: 'username', autocomplete: 'username', value: me.name, hidden: true, readonly: true }),
      field(t('account.password'), { name: 'password', type: 'password', autocomplete: 'current-password', required: true }),
      h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'sure', required: true }), ' ', t('account.closeSure')),
      h('div', { class: 'row' }, h('button', { type: 'submit', class: 'danger' }, t('account.closeButton'))));
    close.addEventListener('submit', (e) => {
      e.preventDefault();
      if (!close.elements.sure.checked) { say.textContent = t('account.closeSure'); return; }
      submit(close, say, async () => {
        await api('/api/account', { method: 'DELETE', body: { password: close.elements.password.value } });
        await conn.reidentify();
        navigate('/');
      });
    });
    const since = me.joined ? new Date(me.joined).toLocaleDateString(document.documentElement.lang || undefined) : '';
    return [
      h('p', { class: 'account-who' }, t('account.signedIn', { name: me.name })),
      since ? h('p', { class: 'muted' }, t('account.since', { date: since })) : null,
      h('div', { class: 'account-actions row' }, out, everywhere, exp),
      h('div', { class: 'account-forms' }, pw, close),
    ];
  }

  // leave signs out (here, or everywhere) and makes the page a guest.
  async function leave(path, btn, say) {
    btn.disabled = true;
    try {
      await api(path, { method: 'DELETE' }).catch((e) => { if (e.status !== 401) throw e; });
      await conn.reidentify();
      render();
    } catch (e) { say.textContent = why(e); } finally { btn.disabled = false; }
  }

  offs.push(conn.on('me', render));
  render();
  return {
    relabel: render,
    destroy() { gone = true; offs.forEach((off) => off()); },
  };
}
