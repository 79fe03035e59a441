// Every bundled battle of every system loads in the browser; an Ancients card
// is played and a unit ordered and moved (the move one round trip), and a
// battle chosen and its result read; a Blightmeer climb is drawn, its
// check's chance shown, and resolved with the dice.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, shot, drawCaptainClimb, api, openBoard } from './support.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

async function openPage(width = 1280, height = 800) {
  const page = await browser.newPage({ viewport: { width, height }, bypassCSP: true });
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  await page.goto(`${server.url}?seed=1`);
  await page.waitForSelector('#board svg');
  return page;
}

async function choose(page, battle) {
  const before = await page.evaluate(() => location.hash);
  await page.selectOption('#battle', battle);
  await page.waitForFunction((h) => location.hash !== h, before);
  await page.waitForSelector('#board svg');
}

test('each bundled battle of each system loads, at 1280 x 800 and at phone width', async () => {
  const { battles } = await (await fetch(`${server.url}api/battles`)).json();
  assert.ok(battles.length >= 7);
  for (const [w, h] of [[1280, 800], [390, 844]]) {
    const page = await openPage(w, h);
    for (const b of battles) {
      await choose(page, b.id);
      assert.match(await page.textContent('#status'), new RegExp(b.system));
      const id = { warmaster: '#wm-svg', ancients: '#an-svg', blightmeer: '#bm-svg' }[b.system];
      assert.equal(await page.locator(id).count(), 1, b.id);
      if (w === 390) {
        // Nothing wider than the screen: the board scales down.
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(width <= 392, `${b.id} is ${width} px wide at phone width`);
      }
    }
    if (w === 390) await shot(page, 'phone-width');
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

// The centre clash as its file deals the cards (the worked example's hand:
// the bundled battles deal at random otherwise), made from the menu with the
// Advanced battle settings the address fills in.
const LISTED = `settings=${encodeURIComponent('{"deal": "as_listed"}')}`;

test('Ancients: play a card, the units it orders light up, order one, move it', async () => {
  const page = await openPage();
  await page.goto(`${server.url}?seed=1&${LISTED}#ancients/centre_clash`);
  await page.waitForSelector('#an-svg');
  // The phase in words, not the engine's "play_card".
  assert.match(await page.textContent('#turn-line'), /Rome · play a card/);
  await page.click('button[data-card="order-three-center"]');
  await page.waitForSelector('#play-card');
  // "Order Three Units Center": the lit units are the ones the card may order.
  const id = await page.evaluate(() => location.hash.slice(1));
  const game0 = await (await fetch(`${server.url}api/games/${id}`)).json();
  // Asked as the page's player: in a game with hidden cards a question is the player to play's alone.
  const seat = await page.evaluate((g) => JSON.parse(localStorage.getItem(`referee.seats.${g}`) ?? '[]').map((t) => t.token).join(','), id);
  const plan = await (await fetch(`${server.url}api/games/${id}/query`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Referee-Seat': seat }, body: JSON.stringify({ name: 'orders', args: { card: 'order-three-center' } }) })).json();
  assert.equal(plan.orders, 3);
  const lit = await page.locator('#an-svg .piece rect[stroke="#ffd400"]').count();
  assert.equal(lit, plan.units.length);
  // The leaders it may order are lit too, each tagged with his name.
  assert.deepEqual((await page.locator('#an-svg .leader.lit').evaluateAll((ms) => ms.map((m) => m.dataset.unit))).sort(), plan.leaders.map((l) => l.id).sort());
  assert.ok(plan.leaders.length >= 1);
  const names = new Map(game0.scenario.leaders.map((l) => [l.id, l.name ?? l.id]));
  for (const l of plan.leaders) assert.match(await page.textContent(`#an-svg .leader[data-unit="${l.id}"]`), new RegExp(`★ ${names.get(l.id)}`, 'i'));
  // The cards go by their names, the engine's.
  await page.waitForFunction((n) => document.querySelector('button[data-card="order-three-center"]')?.textContent === n, plan.name);
  // The key under the board names each class badge in full.
  assert.match(await page.textContent('#an-key'), /HI heavy infantry/);
  // The panel says which unit each leader is with.
  const attached = game0.state.leaders.find((l) => l.attached_to);
  const with_ = game0.state.units.find((u) => u.id === attached.attached_to);
  assert.match(await page.textContent('#an-leaders'), new RegExp(`${names.get(attached.id)} with ${with_.id} \\(${with_.class.replaceAll('_', ' ')}\\)`));
  await page.click('#play-card');
  await page.waitForFunction(() => /movement/.test(document.getElementById('turn-line').textContent));
  const unit = plan.units[0].id;
  await page.click(`#an-svg rect[data-unit="${unit}"]`);
  await page.click('#give-orders');
  await page.waitForFunction(() => document.querySelectorAll('#log-list li').length === 2);
  await page.click(`#an-svg rect[data-unit="${unit}"]`);
  await page.waitForSelector('#an-svg polygon.destination');
  // Each destination says in words how far and whether the unit may battle there.
  const marks = await page.locator('#an-svg polygon.destination').count();
  assert.equal(await page.locator('#an-svg text.dest-hexes').count(), marks);
  for (const t of await page.locator('#an-svg text.dest-hexes').allTextContents()) assert.match(t, /^\d hex(es)?$/);
  for (const t of await page.locator('#an-svg text.dest-battle').allTextContents()) assert.match(t, /^(battle|no battle|must battle)$/);
  await shot(page, 'ancients-destinations');
  const target = page.locator('#an-svg polygon.destination').first();
  const hex = await target.getAttribute('data-hex');
  // One round trip per action: the move is one POST .../apply, whose answer
  // carries the log line and the legal actions (no GET of the log).
  const requests = [];
  const seen = (r) => { if (r.url().includes('/api/')) requests.push(`${r.method()} ${new URL(r.url()).pathname}`); };
  page.on('request', seen);
  await target.click({ force: true });
  await page.waitForFunction(() => document.querySelectorAll('#log-list li').length === 3);
  await page.waitForTimeout(200);
  page.off('request', seen);
  assert.deepEqual(requests, [`POST /api/games/${id}/apply`]);
  const game = await (await fetch(`${server.url}api/games/${id}`)).json();
  assert.deepEqual(game.state.units.find((u) => u.id === unit).at, hex.split(',').map(Number));
  assert.deepEqual(page.errors, []);
});

test('Ancients: a battle chosen from the Actions list says its dice, hits, flags and blocks left, as the game has them', async () => {
  // Both armies start in contact: a card, its orders and the end of movement
  // (through the API), then the battle phase at the board.
  const game = await api(server, 'POST', 'games', { battle: 'ancients/lines_engaged', seed: 5 });
  let view = game;
  for (let k = 0; k < 20 && !(view.legal_actions ?? []).some((a) => a.type === 'battle'); ++k) {
    const acts = view.legal_actions;
    const pick = acts.find((a) => a.type === 'play_card') ?? acts.find((a) => a.type === 'order') ?? acts.find((a) => a.type === 'end_movement');
    view = (await api(server, 'POST', `games/${game.id}/apply`, { action: pick })).game;
  }
  assert.equal(view.state.phase, 'battle');
  const page = await openBoard(browser, server, game);
  assert.match(await page.textContent('#controls'), /Choose a battle in Actions/);
  assert.match(await page.textContent('#an-banners'), /^Banners: Rome 0 of \d+ · Carthage 0 of \d+$/);
  // Every action in words: no engine type, no JSON.
  for (const t of await page.locator('#action-list button').allTextContents()) assert.doesNotMatch(t, /^(battle|end_battle|order|play_card),|[[\]{}"]/, t);
  const offered = page.locator('#action-list button', { hasText: / battles / }).first();
  // Each unit by its id and its class in full.
  const [, attacker, target] = (await offered.textContent()).match(/^(\S+) \([a-z ]+\) battles (\S+) \([a-z ]+\)$/);
  await offered.click();
  await page.waitForSelector('#outcome .summary');
  const summary = await page.textContent('#outcome .summary');
  const said = summary.match(new RegExp(`^${attacker} rolls (\\d) dice at ${target}: (\\d) hits?`));
  assert.ok(said, summary);
  // The figures are the game's: the blocks left said are the target's now.
  const after = (await (await fetch(`${server.url}api/games/${game.id}`)).json()).state;
  const left = after.units.find((u) => u.id === target)?.blocks ?? 0;
  assert.match(summary, left ? new RegExp(`${target} has ${left} blocks? left`) : new RegExp(`${target} is eliminated`));
  await shot(page, 'ancients-battle');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('Blightmeer: draw a climb onto the inn, see its check, resolve it with dice', async () => {
  const page = await openPage();
  await choose(page, 'blightmeer/town');
  await drawCaptainClimb(page);
  // A 3" wall climbed by a Move 6, Agility 8 captain: 4" spent, one climb check at 13/20.
  assert.match(await page.textContent('#bm-report'), /Legal: 4" of 6" used/);
  assert.match(await page.textContent('#controls'), /climb check, Agility 8 \(13\/20 = 65\.0%\); if it fails, stays at the foot/);
  await shot(page, 'blightmeer-climb');
  await page.click('#bm-resolve');
  await page.waitForSelector('#message .rolls');
  const dice = await page.locator('#message .rolls span.die').allTextContents();
  assert.ok(dice.length >= 1);
  assert.deepEqual(page.errors, []);
});
