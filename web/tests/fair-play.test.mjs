// Fair play at the board (docs/api.md, "The dice"): a game a newcomer
// opens has secret dice, the board says so and shows the commitment, and
// nothing the page receives holds the seed; the seed is an advanced option,
// empty by default, and a fixed one is told to every viewer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, shot } from './support.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

test('a new game has secret dice: the board shows the commitment, the page never receives the seed', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const bodies = [];
  page.on('response', async (r) => { if (r.url().includes('/api/games')) bodies.push(await r.text().catch(() => '')); });
  await page.goto(`${server.url}#warmaster/default`);
  await page.waitForSelector('#wm-svg polygon.stand');
  assert.equal(await page.inputValue('#seed'), '', 'the seed field is empty by default');
  assert.equal(await page.isVisible('#seed'), false, 'the seed is an advanced option, folded away');
  const line = await page.textContent('#dice-line');
  assert.match(line, /secret until the game ends \(commitment [0-9a-f]{12}…\)/);
  const id = await page.evaluate(() => location.hash.slice(1));
  const view = await (await fetch(`${server.url}api/games/${id}`)).json();
  assert.equal(view.dice.seed, null);
  assert.equal(view.dice.fixed, false);
  assert.match(view.dice.commitment, /^[0-9a-f]{64}$/);
  // The log withholds the seed; nothing the page read carries one.
  const log = await (await fetch(`${server.url}api/games/${id}/log`)).text();
  assert.match(log.split('\n')[0], /"seed":null/);
  for (const b of bodies) assert.doesNotMatch(b, /"seed":\s*[0-9]/, b.slice(0, 200));
  await shot(page, 'fair-play-secret-dice');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a fixed seed typed under Advanced is told to every viewer', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  await page.goto(`${server.url}#warmaster/default`);
  await page.waitForSelector('#wm-svg polygon.stand');
  await page.click('#advanced summary');
  await page.fill('#seed', '42');
  const before = await page.evaluate(() => location.hash);
  await page.click('#new-game');
  await page.waitForFunction((h) => location.hash !== h, before);
  await page.waitForSelector('#dice-line');
  assert.match(await page.textContent('#dice-line'), /fixed seed 42: anyone can foresee the rolls/);
  await page.close();
});

// Views by seat (docs/api.md, "What each viewer sees"): an Ancients game
// between two boards, each opened with its own seat; neither page ever
// receives the other's hand or a deck's order, and each board shows the
// other's hand as a count.
test('two Ancients boards: each page receives its own hand only, and shows the other as a count', async () => {
  const post = async (pathname, body, headers = {}) => {
    const r = await fetch(`${server.url}api/${pathname}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
    assert.ok(r.ok, `${pathname}: ${r.status} ${await r.clone().text()}`);
    return r.json();
  };
  const game = await post('games', { battle: 'ancients/centre_clash', seats: [0], opponent_sides: [] });
  const joined = await post(`games/${game.id}/join`, {}, { 'X-Referee-Invite': game.invitations[0].token });
  const open = async (tokens) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    page.bodies = [];
    page.on('response', async (r) => { if (r.url().includes('/api/games')) page.bodies.push(await r.text().catch(() => '')); });
    await page.addInitScript(([id, t]) => localStorage.setItem(`referee.seats.${id}`, JSON.stringify(t)), [game.id, tokens]);
    await page.goto(`${server.url}#${game.id}`);
    await page.waitForSelector('#an-svg');
    return page;
  };
  const a = await open(game.seat_tokens), b = await open(joined.seat_tokens);
  // A plays a card and ends the movement: a draw B must not be told.
  await a.click('#controls button[data-card]');
  await a.click('#play-card');
  await a.waitForFunction(() => /movement|battle|play a card/.test(document.getElementById('turn-line').textContent));
  const view = await (await fetch(`${server.url}api/games/${game.id}`, { headers: { 'X-Referee-Seat': game.seat_tokens[0].token } })).json();
  const end = view.legal_actions.find((x) => x.type === 'end_movement');
  if (end) await post(`games/${game.id}/apply`, { action: end }, { 'X-Referee-Seat': game.seat_tokens[0].token });
  await b.waitForFunction(() => /Turn 2/.test(document.getElementById('turn-line').textContent), null, { timeout: 10000 });
  await a.waitForSelector('#an-cards');
  const [mine, theirs] = game.players;
  assert.match(await a.textContent('#an-cards'), new RegExp(`${theirs} holds 5 cards, \\d+ cards in the deck`));
  assert.match(await a.textContent('#an-cards'), new RegExp(`${mine} holds [A-Z][^,]+, `));
  await shot(a, 'fair-play-ancients-other-hand-counted');
  // Every answer each page read: the other side's hand and both decks null.
  for (const [page, me] of [[a, 0], [b, 1]]) {
    assert.ok(page.bodies.length > 2);
    for (const body of page.bodies) {
      for (const line of body.split('\n').filter((l) => l.startsWith('{') || l.startsWith('data: {'))) {
        const j = JSON.parse(line.replace(/^data: /, ''));
        const states = [j.state, j.game?.state].filter(Boolean);
        for (const st of states) {
          assert.equal(st.hands[1 - me], null, `side ${me}'s page received the other hand: ${line.slice(0, 200)}`);
          assert.deepEqual(st.decks, [null, null]);
        }
        for (const e of [...(j.entries ?? []), ...(j.game?.entries ?? [])])
          if (e.result?.drew !== undefined && e.result.side !== me) assert.equal(e.result.drew, null);
      }
    }
  }
  await a.close();
  await b.close();
});
