// What the last actions did stays on the Warmaster table: a trail for every
// unit whose stands moved, labelled with how far its centre went and why
// (advance, charge, drive back, retreat, pursuit...), kept until the player
// at the board acts again; a confused unit's mark; a crossed outline where a
// destroyed unit stood; and the opponent's actions in words with names and
// distances. Every figure is checked against the game's own states (GET
// .../replay/{step}), never against numbers written here.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, shot, api, openBoard, settled } from './support.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

const call = (method, pathname, body) => api(server, method, pathname, method === 'POST' ? body ?? {} : body);
const post = (path, body) => call('POST', path, body);
const get = (path) => call('GET', path);

const openGame = (game) => openBoard(browser, server, game, { selector: '#wm-svg' });

// A screenshot at the desktop size, and one at a phone's.
async function shots(page, name) {
  await shot(page, `${name}-1280`);
  await page.setViewportSize({ width: 390, height: 844 });
  await settled(page);
  await shot(page, `${name}-390`);
  // Zoomed in twice (the table's + button), as a phone player reads it.
  await page.click('#zoom-in');
  await page.click('#zoom-in');
  await shot(page, `${name}-390-zoomed`);
  await page.click('#zoom-fit');
  await page.setViewportSize({ width: 1280, height: 800 });
}

const centre = (stands) => ({ x: stands.reduce((a, p) => a + p.x, 0) / stands.length, y: stands.reduce((a, p) => a + p.y, 0) / stands.length });
const unitIn = (state, id) => state.units.find((u) => u.id === id);
const present = (u) => u && !u.destroyed && !u.off_table && u.stands?.length;
// Stands moved (a unit that lost stands: its centre moved).
const moved = (a, b) => present(a) && present(b) && (a.stands.length === b.stands.length
  ? a.stands.some((p, i) => Math.hypot(p.x - b.stands[i].x, p.y - b.stands[i].y) > 0.05)
  : Math.hypot(centre(a.stands).x - centre(b.stands).x, centre(a.stands).y - centre(b.stands).y) > 0.05);
// The distance the board is to show: cm to one decimal.
const cm = (d) => (Math.round(d * 10) / 10).toFixed(1);

// Each trail the table shows: its unit, kind, ends (table cm) and the words drawn with it.
function trailsOf(page) {
  return page.evaluate(() => [...document.querySelectorAll('#wm-svg g.trails g.trail')].map((g) => {
    const label = document.querySelector(`#wm-svg g.trail-labels text.trail-label[data-segment="${g.dataset.segment}"]`);
    const [fx, fy] = g.dataset.from.split(',').map(Number), [tx, ty] = g.dataset.to.split(',').map(Number);
    return { unit: g.dataset.unit, kind: g.dataset.kind, from: { x: fx, y: fy }, to: { x: tx, y: ty }, label: label?.textContent ?? '' };
  }));
}

// The two layers take no pointer events: a trail over a stand never stops a drag.
async function assertInert(page) {
  for (const sel of ['#wm-svg g.trails', '#wm-svg g.trail-labels'])
    assert.equal(await page.$eval(sel, (g) => getComputedStyle(g).pointerEvents), 'none', sel);
}

// The first seed (from 1) whose game, played by `play`, gives what `wanted` accepts.
async function findSeed(battle, play, wanted) {
  for (let seed = 1; seed <= 60; ++seed) {
    const g = await post('games', { battle, seed });
    const out = await play(g);
    await call('DELETE', `games/${g.id}`);
    if (wanted(out)) return { seed, out };
  }
  assert.fail(`no seed from 1 to 60 of ${battle} gives what the test needs`);
}

test('the built-in opponent\'s turn: a trail per moved unit, with the distance its centre moved, and its actions in words', async () => {
  // The Empire (side 0) ends its first turn through the API; the board then
  // gives the Orcs to the built-in opponent, which plays their whole turn.
  const game = await post('games', { battle: 'warmaster/pitched-battle', seed: 1 });
  for (const action of [{ type: 'end_phase' }, { type: 'shoot' }, { type: 'end_phase' }]) await post(`games/${game.id}/apply`, { action });
  const page = await openGame(game);
  await page.selectOption('#player-1', 'opponent');
  await page.waitForSelector('#opponent-report');
  await page.waitForFunction(() => /^Turn 2 /.test(document.getElementById('turn-line')?.textContent ?? ''), null, { timeout: 60000 });
  await page.waitForFunction(() => document.querySelectorAll('#wm-svg g.trails g.trail').length > 0);
  const view = await get(`games/${game.id}`);
  assert.equal(view.current_player, 0, 'the opponent has played its whole turn');
  // Every state of the opponent's turn, from the one it began with.
  const states = [];
  for (let step = 3; step <= view.position; ++step) states.push((await get(`games/${game.id}/replay/${step}`)).state);
  const first = states[0], last = states.at(-1);
  const trails = await trailsOf(page);
  const movers = first.units.filter((u) => moved(u, unitIn(last, u.id))).map((u) => u.id);
  assert.ok(movers.some((id) => unitIn(first, id).side === 1), 'the opponent moved a unit of its own');
  assert.deepEqual([...new Set(trails.map((t) => t.unit))].sort(), movers.sort(), 'a trail for each unit that moved, and for no other');
  const near = (p, q) => Math.hypot(p.x - q.x, p.y - q.y) < 0.01;
  for (const id of movers) {
    const mine = trails.filter((t) => t.unit === id);
    // From where it stood to where it stands, through where it stood between actions.
    assert.ok(near(mine[0].from, centre(unitIn(first, id).stands)), `${id}'s trail starts where it stood`);
    assert.ok(near(mine.at(-1).to, centre(unitIn(last, id).stands)), `${id}'s trail ends where it stands`);
    for (const t of mine) {
      assert.ok(states.some((s) => present(unitIn(s, id)) && near(t.to, centre(unitIn(s, id).stands))), `${id}'s trail ends at a place the unit stood`);
      assert.ok(t.label.includes(`${cm(Math.hypot(t.to.x - t.from.x, t.to.y - t.from.y))} cm`), `${id}: "${t.label}"`);
    }
    if (mine.length === 1) {
      const d = Math.hypot(centre(unitIn(last, id).stands).x - centre(unitIn(first, id).stands).x, centre(unitIn(last, id).stands).y - centre(unitIn(first, id).stands).y);
      assert.match(mine[0].label, new RegExp(`^(advance|charge|evade|drive back|retreat|pursuit|fall back|advance after combat|move)(, [a-z ]+)* ${cm(d)} cm$`));
    }
  }
  await assertInert(page);
  // The report names units, not ids, and says how far each moved.
  const lines = await page.locator('#opponent-report li .entry-words').allTextContents();
  assert.ok(lines.length > 0);
  for (const line of lines) assert.doesNotMatch(line, /\b(orc|emp)-[a-z]/, `"${line}" names an id`);
  assert.ok(lines.some((l) => /orders .+: (passed|failed) \(\d \+ \d = \d+, needed \d+ or less\)(: [a-z ,]+)?$/.test(l)), lines.join('\n'));
  for (const t of trails.filter((x) => ['advance', 'charge', 'evade'].includes(x.kind))) {
    const d = t.label.match(/(\d+\.\d) cm$/)[1];
    assert.ok(lines.some((l) => l.includes(`${d} cm`)), `no line says ${t.unit} moved ${d} cm: ${lines.join(' | ')}`);
  }
  const log = await page.locator('#log-list li').allTextContents();
  assert.ok(log.some((l) => /(advance|charges .+,) \d+\.\d cm/.test(l)), log.join('\n'));
  await shots(page, 'outcome-trails-opponent');
  // The player's next action clears them: the trails were the opponent's turn's.
  await page.locator('#action-list button', { hasText: 'End the Command phase' }).click();
  await page.waitForFunction(() => document.querySelectorAll('#wm-svg g.trails g.trail').length === 0);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// The shooting battle's Shooting phase, as far as the shot: its result.
const shoot = async (g) => {
  await post(`games/${g.id}/apply`, { action: { type: 'end_phase' } });
  return (await post(`games/${g.id}/apply`, { action: { type: 'shoot' } })).result;
};

test('a shooting that drives a unit back: a drive-back trail, the confused mark, and the shot in words', async () => {
  const { seed, out } = await findSeed('warmaster/shooting', shoot,
    (r) => r.drive_backs.some((d) => d.moved > 0 && d.confused && !d.routed && !d.left_table));
  const db = out.drive_backs.find((d) => d.moved > 0 && d.confused);
  const game = await post('games', { battle: 'warmaster/shooting', seed });
  await post(`games/${game.id}/apply`, { action: { type: 'end_phase' } });
  const page = await openGame(game);
  assert.equal(await page.locator('#wm-svg .confused-mark').count(), 0, 'no unit is confused before the shot');
  await page.locator('#action-list button', { hasText: /^Shoot/ }).first().click();
  await page.waitForSelector('#outcome');
  await page.waitForFunction(() => document.querySelectorAll('#wm-svg g.trails g.trail').length > 0);
  const [s0, s1] = [(await get(`games/${game.id}/replay/1`)).state, (await get(`games/${game.id}/replay/2`)).state];
  const trails = await trailsOf(page);
  assert.deepEqual(trails.map((t) => [t.unit, t.kind]), [[db.unit, 'drive back']]);
  const a = centre(unitIn(s0, db.unit).stands), b = centre(unitIn(s1, db.unit).stands);
  assert.equal(trails[0].label, `drive back ${cm(Math.hypot(b.x - a.x, b.y - a.y))} cm`);
  await assertInert(page);
  // Confused: the state says so, and the table shows the mark on its stands.
  assert.equal(unitIn(s1, db.unit).confused, true);
  assert.equal(await page.locator(`#wm-svg .confused-mark[data-unit="${db.unit}"]`).count(), 1);
  assert.ok(await page.locator(`#wm-svg .confused-mark[data-unit="${db.unit}"] circle`).isVisible());
  // The log says it in words, with the distance.
  const log = await page.locator('#log-list li').allTextContents();
  assert.ok(log.some((l) => l.includes(`driven back ${cm(db.moved)} cm`) && l.includes('confused') && !/orc-|emp-/.test(l.split('[')[0])), log.join('\n'));
  await shots(page, 'outcome-trails-drive-back');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a combat with a retreat: the retreat and the pursuit drawn, and a destroyed unit\'s crossed outline where it stood', async () => {
  const fight = async (g) => {
    await shoot(g);
    const r = (await post(`games/${g.id}/apply`, { action: { type: 'end_phase' } })).result;
    return { r, state: (await get(`games/${g.id}`)).state };
  };
  const moves = (r) => r.combats.rounds.flatMap((x) => x.moves);
  // A retreat and a pursuit by units still on the table after the phase, and a unit destroyed.
  const shown = (r, state, kind) => moves(r).find((m) => m.kind === kind && m.moved > 0 && present(unitIn(state, m.unit)));
  const { seed, out } = await findSeed('warmaster/combat', fight, ({ r, state }) =>
    shown(r, state, 'retreat') && shown(r, state, 'pursuit') && state.units.some((u) => u.destroyed));
  const game = await post('games', { battle: 'warmaster/combat', seed });
  await post(`games/${game.id}/apply`, { action: { type: 'end_phase' } });
  await post(`games/${game.id}/apply`, { action: { type: 'shoot' } });
  const page = await openGame(game);
  await page.click('#fight-combat');
  await page.waitForSelector('#outcome');
  await page.waitForFunction(() => document.querySelectorAll('#wm-svg g.trails g.trail').length > 0);
  const [s0, s1] = [(await get(`games/${game.id}/replay/2`)).state, (await get(`games/${game.id}/replay/3`)).state];
  const trails = await trailsOf(page);
  for (const kind of ['retreat', 'pursuit']) {
    const m = shown(out.r, out.state, kind);
    const t = trails.find((x) => x.unit === m.unit);
    assert.ok(t, `no trail for ${m.unit} (${kind})`);
    assert.ok(t.kind.split(', ').includes(kind), `${m.unit}: ${t.kind}`);
    const a = centre(unitIn(s0, m.unit).stands), b = centre(unitIn(s1, m.unit).stands);
    assert.ok(t.label.endsWith(` ${cm(Math.hypot(b.x - a.x, b.y - a.y))} cm`), t.label);
  }
  // A unit destroyed in the phase: crossed out where it stood, with the word.
  const gone = s1.units.filter((u) => u.destroyed && present(unitIn(s0, u.id)));
  assert.ok(gone.length > 0);
  for (const u of gone) {
    assert.equal(await page.locator(`#wm-svg .gone-mark[data-unit="${u.id}"][data-why="destroyed"]`).count(), 1);
    assert.match(await page.textContent(`#wm-svg .gone-label[data-unit="${u.id}"]`), /: destroyed$/);
  }
  // A unit that lost stands says how many in its label.
  const hurt = s1.units.filter((u) => present(u) && u.stands_lost > 0);
  assert.ok(hurt.length > 0);
  for (const u of hurt)
    assert.match(await page.textContent(`#wm-svg [data-label="${u.id}"]`), new RegExp(`\\b${u.stands_lost} stands? lost\\b`));
  await assertInert(page);
  // The log: who fought whom, who won, and the retreat with its distance.
  const log = (await page.locator('#log-list li').allTextContents()).join('\n');
  const retreat = shown(out.r, out.state, 'retreat');
  assert.match(log, / against .+: .+ win by \d/);
  assert.ok(log.includes(`retreat ${cm(retreat.moved)} cm`), log);
  await shots(page, 'outcome-trails-combat');
  assert.deepEqual(page.errors, []);
  await page.close();
});
