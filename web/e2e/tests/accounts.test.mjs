// Accounts (docs/protocol.md, "Accounts"; docs/web.md): a guest plays at
// once, makes an account of itself on a phone in Portuguese, and signs in
// on a desktop in English in another browser that shares nothing with the
// first: the same games listed. The page keeps no secret a script can read:
// document.cookie holds no session and localStorage no token.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launch, person, closeAll, noErrors, createRoom, takeSeat, waitStatus, shoot, waitFor, pageFetch,
  PHONE, DESKTOP,
} from '../lib.mjs';
import { onScreen } from '../onscreen.mjs';

let srv, browser;
before(async () => { srv = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

// noSecrets asserts that no script of p's page can read a secret: the
// session is in an HttpOnly cookie, and nothing that looks like a token is
// kept in localStorage.
async function noSecrets(p, what) {
  const { cookie, storage } = await p.page.evaluate(() => ({
    cookie: document.cookie,
    storage: Object.fromEntries(Object.keys(localStorage).map((k) => [k, localStorage.getItem(k)])),
  }));
  assert.doesNotMatch(cookie, /tabuleiro_session|tabuleiro_device/, `${what}: document.cookie shows a session: ${cookie}`);
  assert.ok(!('tabuleiro.token' in storage), `${what}: localStorage keeps a token`);
  for (const [k, v] of Object.entries(storage)) {
    assert.doesNotMatch(String(v), /^[0-9a-f]{32}$|^[A-Za-z0-9_-]{43}$/, `${what}: localStorage[${k}] looks like a secret`);
  }
}

test('a guest plays, makes an account on a phone in Portuguese, signs in on a desktop in English: the same games', async () => {
  const name = `Ana_${Date.now() % 100000}`;
  const password = 'uma palavra-passe';
  // A guest plays at once: no account asked for.
  const ana = await person(browser, srv.url, 'Ana', { viewport: PHONE, locale: 'pt-PT' });
  await ana.page.locator('html[lang="pt-PT"]').waitFor();
  assert.ok(await ana.page.locator('#account-link').isVisible(), 'the sign-in link in the header');
  const room = await createRoom(ana, 'morris', { variant: '3' });
  const bia = await person(browser, srv.url, 'Bia', { path: `/r/${room}` });
  await takeSeat(bia);
  await bia.page.getByRole('button', { name: 'Resign', exact: true }).click();
  await bia.page.getByRole('button', { name: 'Really resign?' }).click();
  await waitStatus(ana.page, 'finished');
  await noSecrets(ana, 'the guest');

  // The guest makes an account of itself, keeping its id.
  const guestID = (await pageFetch(ana, 'GET', '/api/me')).body.id;
  await ana.page.locator('#account-link').click();
  await ana.page.waitForURL(/\/account$/);
  const signup = ana.page.locator('#signup');
  await signup.waitFor();
  assert.match(await ana.page.locator('#signup-h').textContent(), /Criar conta/);
  await onScreen(ana.page, signup.locator('button[type=submit]'), 'the sign-up button');
  // A password too short is refused by the page, in Portuguese.
  await signup.locator('input[name=name]').fill(name);
  await signup.locator('input[name=password]').fill('curta');
  await signup.locator('button[type=submit]').click();
  assert.match(await ana.page.locator('.account-msg').textContent(), /pelo menos 8 caracteres/);
  await signup.locator('input[name=password]').fill(password);
  await signup.locator('button[type=submit]').click();
  await waitFor(async () => /Entrou como/.test(await ana.page.locator('.account-who').textContent()), 'signed in');
  await waitFor(async () => (await ana.page.locator('#me-name').textContent()) === name, 'the name in the header');
  assert.ok(!(await ana.page.locator('#account-link').isVisible()), 'no sign-in link for an account');
  const me = (await pageFetch(ana, 'GET', '/api/me')).body;
  assert.deepEqual([me.id, me.name, me.account], [guestID, name, true], 'the guest became the account');
  await onScreen(ana.page, ana.page.locator('#me'), 'the name in the header');
  await onScreen(ana.page, ana.page.locator('#signout'), 'the sign-out button');
  await noSecrets(ana, 'the account on the phone');
  await shoot(ana.page, 'account', { boards: false });

  // Another browser, nothing shared, on a desktop in English: sign in.
  const other = await person(browser, srv.url, null, { viewport: DESKTOP, locale: 'en-US', path: '/account' });
  const signin = other.page.locator('#signin');
  await signin.waitFor();
  assert.equal(await other.page.locator('#signin-h').textContent(), 'Sign in');
  await signin.locator('input[name=name]').fill(name.toLowerCase());
  await signin.locator('input[name=password]').fill('not the password');
  await signin.locator('button[type=submit]').click();
  await waitFor(async () => /Wrong name or password/.test(await other.page.locator('.account-msg').textContent()), 'the refusal');
  await signin.locator('input[name=password]').fill(password);
  await signin.locator('button[type=submit]').click();
  await waitFor(async () => /Signed in as/.test(await other.page.locator('.account-who').textContent()), 'signed in');
  await waitFor(async () => (await other.page.locator('#me-name').textContent()) === name, 'the name in the header');
  await noSecrets(other, 'the account on the desktop');
  await onScreen(other.page, other.page.locator('#password button[type=submit]'), 'change password');
  await onScreen(other.page, other.page.locator('#close button[type=submit]'), 'close account');

  // The same games.
  await other.page.locator('a.brand').click();
  const mine = other.page.locator(`.my-games .my-game[data-room="${room}"]`);
  await mine.waitFor();
  await onScreen(other.page, mine, 'the game in My games');
  await noSecrets(other, 'the lobby');

  // Sign out here: the page is a guest again, the other browser stays in.
  await other.page.goto(srv.url + '/account');
  await other.page.locator('#signout').click();
  await other.page.locator('#signup').waitFor();
  assert.ok(await other.page.locator('#account-link').isVisible(), 'the sign-in link again');
  await onScreen(other.page, other.page.locator('#signin button[type=submit]'), 'the sign-in button');
  await shoot(other.page, 'account-guest', { boards: false });
  assert.equal((await pageFetch(other, 'GET', '/api/me')).body.account, false);
  assert.equal((await pageFetch(ana, 'GET', '/api/me')).body.account, true);
  noErrors([ana, bia]);
  noErrors([other], [/status of 401/]); // the wrong password, on purpose
  await closeAll(ana, bia, other);
});
