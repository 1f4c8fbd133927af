// The page's language rules (web/static/js/i18n.js, labels.js): which
// catalogue a browser gets, plural forms for zero and one, and a guest's
// default name in the reader's language. Run: node --test web/unit/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { choose, pluralForm } from '../static/js/i18n.js';

const HAVE = ['en', 'pt-BR', 'pt-PT'];
const cat = (code) => JSON.parse(readFileSync(new URL(`../static/i18n/${code}.json`, import.meta.url), 'utf8'));

test('the browser\'s language picks the catalogue: pt-BR for pt-BR, pt-PT for pt-PT and pt', () => {
  for (const [wanted, got] of [
    [['pt-BR'], 'pt-BR'], [['pt-br', 'en'], 'pt-BR'], [['pt-PT'], 'pt-PT'], [['pt'], 'pt-PT'], [['pt-AO'], 'pt-PT'],
    [['en-GB'], 'en'], [['de-DE', 'pt-BR'], 'pt-BR'], [['de'], 'en'], [[], 'en'],
  ]) assert.equal(choose(HAVE, null, wanted), got, wanted.join(','));
  // A choice made with the switch wins; an old "pt" choice is European.
  assert.equal(choose(HAVE, 'pt-BR', ['en']), 'pt-BR');
  assert.equal(choose(HAVE, 'pt', ['pt-BR']), 'pt-PT');
  assert.equal(choose(HAVE, 'xx', ['pt-BR']), 'pt-BR');
});

test('plurals: zero takes the plural in every language, one the singular', () => {
  for (const [code, zero, one, two] of [
    ['en', '0 games now', '1 game now', '2 games now'],
    ['pt-PT', '0 partidas agora', '1 partida agora', '2 partidas agora'],
    ['pt-BR', '0 partidas agora', '1 partida agora', '2 partidas agora'],
  ]) {
    const m = cat(code)['bots.games'], rules = new Intl.PluralRules(code);
    const say = (n) => pluralForm(m, n, rules).replace('{n}', n);
    assert.deepEqual([say(0), say(1), say(2)], [zero, one, two], code);
  }
  // Intl's Brazilian rule alone would say "0 partida".
  assert.equal(new Intl.PluralRules('pt-BR').select(0), 'one');
  assert.equal(pluralForm({ zero: 'none', one: 'one', other: 'many' }, 0, new Intl.PluralRules('en')), 'none');
});

test('each Portuguese says it its own way, and the seeds\' names stay', () => {
  const pt = cat('pt-PT'), br = cat('pt-BR');
  const words = (c, keys) => keys.map((k) => (typeof c[k] === 'string' ? c[k] : c[k].other)).join(' | ');
  const keys = ['rematch.ask', 'room.watching', 'status.thinking', 'room.download', 'common.reconnecting', 'room.moves', 'move.aria', 'review.item', 'player.guest'];
  assert.equal(words(pt, keys), 'Desforra | {n} a ver | {who} está a pensar | Descarregar: | Ligação perdida — a restabelecer… | Jogadas | Jogada {n}, {who}: {move} | Jogada {n}: {played} — {tip} | convidado-{number}');
  assert.equal(words(br, keys), 'Revanche | {n} assistindo | {who} está pensando | Baixar: | Conexão perdida — reconectando… | Lances | Lance {n}, {who}: {move} | Lance {n}: {played} — {tip} | visitante-{number}');
  // One word for a move in each: the move list, the review and the analysis agree.
  for (const [c, no] of [[pt, /\blances?\b/i], [br, /\bjogadas?\b/i]]) {
    for (const k of ['room.moves', 'move.aria', 'replay.prev', 'replay.next', 'replay.last', 'review.item', 'review.worstSummary', 'analysis.mistake', 'analysis.other', 'analysis.graph', 'lobby.moveN', 'go.last', 'cell.last']) {
      assert.doesNotMatch(words(c, [k]), no, `${c['lang.tag']} ${k}`);
    }
  }
  for (const c of [pt, br]) {
    for (const k of ['game.queens.rules.2', 'game.go.rules.3', 'piece.D', 'game.queens.variant.impar.short', 'level.queens.gulosa.what']) assert.equal(c[k], pt[k], k);
  }
});
