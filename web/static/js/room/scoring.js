// Go's stone-removal phase (a view of the room page; docs/protocol.md):
// the dead stones, who accepted, Accept, and the time left under a clock.
import { h } from '../dom.js';
import { t, tNodes, num } from '../i18n.js';
import * as M from './model.js';
import { whoNode } from './words.js';

export function scoringView(ctx) {
  const el = h('section', { class: 'scoring', hidden: true, 'aria-live': 'polite' });
  let by = null, left = null; // scoreBy and its countdown

  function render(m) {
    const sc = M.scoring(m), player = M.isPlayer(m);
    el.hidden = !sc;
    by = null; left = null;
    if (!sc) return el.replaceChildren();
    el.replaceChildren(
      h('p', {}, player ? t('scoring.help') : t('scoring.helpSpectator'), sc.resume ? ` ${t('scoring.resume')}` : ''),
      h('p', { class: 'scoring-dead' }, sc.dead.length ? t('scoring.dead', { n: sc.dead.length, list: sc.dead.join(' ') }) : t('scoring.noneDead')),
      h('ul', {}, ...sc.accepted.map((k) => h('li', { class: 'accepted' }, '✓ ', ...tNodes('scoring.accepted', { who: whoNode(m, k) })))),
      !player ? '' : sc.mine ? h('p', { class: 'muted' }, t('scoring.youAccepted'))
        : h('button', { type: 'button', class: 'primary score-accept', onclick: () => ctx.send('room.score.accept') }, t('scoring.accept')));
    if (sc.by != null) { by = sc.by; left = h('p', { class: 'muted' }); el.append(left); tick(); }
  }

  function tick() {
    if (left) left.textContent = t('scoring.left', { n: num(Math.max(0, Math.ceil((by - Date.now()) / 1000))) });
  }

  return { el, render, tick };
}
