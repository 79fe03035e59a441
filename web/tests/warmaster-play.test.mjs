// The Warmaster board's play aids: the built-in opponent or hot-seat per
// side, the exact shooting and combat odds before the dice, the rotate
// handle, the engine's evade drawn before it is chosen; the board at phone
// width; and the first page load from a cold server, measured.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launch, shot, api, giveSeatsFor, queryAnswered, settled } from './support.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

// The default battle by its address unless told (a first visit opens the fair battle).
async function openPage(url = `${server.url}?seed=1#warmaster/default`, width = 1280, height = 800) {
  const page = await browser.newPage({ viewport: { width, height }, bypassCSP: true });
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  await giveSeatsFor(page, url);
  await page.goto(url);
  await page.waitForSelector('#wm-svg polygon.stand');
  return page;
}
const post = (pathname, body) => api(server, 'POST', pathname, body);
// A game of a battle file of the repository, created over the API.
async function gameOf(file) {
  return post('games', { system: 'warmaster', scenario: JSON.parse(readFileSync(path.join(root, file), 'utf8')) });
}
async function play(id, ...types) { for (const type of types) assert.ok((await post(`games/${id}/apply`, { action: { type } })).applied, type); }
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

test('first page load (the fair battle a first visit opens) from a cold server: median of five', async () => {
  const times = [];
  for (let i = 0; i < 5; ++i) {
    const cold = await startServer();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    await page.goto(cold.url);
    await page.waitForSelector('#wm-svg polygon.stand');
    await page.waitForFunction(() => document.body.dataset.readyMs);
    times.push(Number(await page.evaluate(() => document.body.dataset.readyMs)));
    await page.close();
    cold.stop();
  }
  console.log(`first page load of the fair battle a first visit opens (navigation start to the board drawn, a fresh server each): median ${median(times).toFixed(0)} ms of ${times.map((t) => t.toFixed(0)).join(', ')}`);
  assert.equal(times.length, 5);
});

test('players: hot-seat by default; the built-in opponent control follows GET /api/systems', async (t) => {
  const systems = await (await fetch(`${server.url}api/systems`)).json();
  const wm = systems.find((s) => s.name === 'warmaster');
  const page = await openPage();
  assert.equal(await page.locator('#player-0').inputValue(), 'you');
  assert.equal(await page.locator('#player-1').inputValue(), 'you');
  if (!wm.opponent) {
    // Without one, the choice is there but disabled, and says why.
    assert.ok(await page.locator('#player-1').isDisabled());
    assert.match(await page.getAttribute('#player-1', 'title'), /no built-in opponent/);
    await page.close();
    t.skip('Warmaster has no built-in opponent yet (GET /api/systems answers "opponent": false): hot-seat checked only');
    return;
  }
  // The Orcs to the built-in opponent; the Empire ends its turn; the
  // opponent plays the Orcs' whole turn on the server and the board says what it did.
  await page.selectOption('#player-1', 'opponent');
  const id = await page.evaluate(() => location.hash.slice(1));
  const steps = ['end_orders', 'end_phase', 'shoot', 'end_phase'];
  for (const [i, type] of steps.entries()) {
    await page.click(`#action-list button[data-action*='"type":"${type}"']`);
    await page.waitForFunction((n) => document.querySelector('#log-list').children.length >= n, i + 1);
  }
  await page.waitForSelector('#opponent-report', { timeout: 60000 });
  await page.waitForFunction(() => /Turn 2 · Empire/.test(document.getElementById('turn-line').textContent), null, { timeout: 60000 });
  const g = await (await fetch(`${server.url}api/games/${id}`)).json();
  assert.equal(g.current_player, 0);
  assert.ok(g.position > 4, `the opponent played ${g.position - 4} actions`);
  assert.ok(await page.locator('#opponent-report li').count() >= 1);
  await shot(page, 'warmaster-opponent-turn');
  // Undo steps back over the opponent's last action, as over any other.
  // (The opponent may then play it again at once: every label shown is kept.)
  await page.evaluate(() => {
    window.labelsShown = [];
    new MutationObserver(() => window.labelsShown.push(document.getElementById('replay-label').textContent))
      .observe(document.getElementById('replay-label'), { childList: true, characterData: true, subtree: true });
  });
  await page.click('#undo');
  await page.waitForFunction((p) => window.labelsShown.includes(`step ${p - 1} (live)`), g.position);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the opponent one action per click: each click plays one, and the player\'s own outcome stays on screen', async () => {
  const systems = await (await fetch(`${server.url}api/systems`)).json();
  if (!systems.find((s) => s.name === 'warmaster').opponent) return;
  const page = await openPage();
  await page.selectOption('#opponent-pace', 'action');
  await page.selectOption('#player-1', 'opponent');
  const id = await page.evaluate(() => location.hash.slice(1));
  for (const [i, type] of ['end_orders', 'end_phase', 'shoot', 'end_phase'].entries()) {
    await page.click(`#action-list button[data-action*='"type":"${type}"']`);
    await page.waitForFunction((n) => document.querySelector('#log-list').children.length >= n, i + 1);
  }
  // The Empire's last action (the Combat phase fought) is still shown, and nothing more is played until asked.
  await page.waitForSelector('#opponent-step');
  assert.match(await page.textContent('#outcome'), /Done: Fight the combats and end the turn/);
  // The next side by its name, not its number.
  assert.match(await page.textContent('#outcome .outcome-next'), /^Next: turn 1, Orcs of the [A-Za-z ]+: command phase$/);
  assert.equal((await (await fetch(`${server.url}api/games/${id}`)).json()).position, 4);
  for (let k = 1; k <= 3; ++k) {
    await page.click('#opponent-step');
    await page.waitForFunction((n) => document.querySelectorAll('#opponent-report li').length === n, k);
    assert.equal((await (await fetch(`${server.url}api/games/${id}`)).json()).position, 4 + k);
  }
  assert.match(await page.textContent('#opponent-report'), /The built-in opponent is playing Orcs of the Broken Tooth: 3 actions so far/);
  assert.match(await page.textContent('#outcome'), /Done: Fight the combats and end the turn/);
  // The outcome stays; whose turn came next, no longer true, goes.
  assert.equal(await page.locator('#outcome .outcome-next').count(), 0);
  await shot(page, 'warmaster-opponent-step');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a battle with a unit deployed in no formation says so above the controls', async () => {
  // Cavalry stands are 2 cm across the front: 4 cm apart they touch nothing.
  const scenario = { name: 'Knights 2 cm apart', armies: [
    { name: 'Empire', units: [{ id: 'knights', type: 'cavalry', stands: [22, 26, 30].map((x) => ({ x, y: 22, facing: 0 })) }],
      characters: [{ id: 'general', role: 'general', command: 9, x: 26, y: 10 }] },
    { name: 'Orcs', units: [{ id: 'orcs', type: 'infantry', stands: [{ x: 90, y: 100, facing: 180 }] }],
      characters: [{ id: 'warboss', role: 'general', command: 9, x: 90, y: 110, facing: 180 }] }] };
  const g = await post('games', { system: 'warmaster', scenario });
  const page = await openPage(`${server.url}#${g.id}`);
  await page.waitForSelector('#deployment-warnings');
  const text = await page.textContent('#deployment-warnings');
  assert.match(text, /knights is deployed in no formation: stand 1 touches no other stand of its unit \(nearest: stand 2, 20\.0 mm away/);
  await shot(page, 'warmaster-deployment-warning');
  // The bundled battles have none.
  assert.deepEqual(page.errors, []);
  await page.close();
  const fair = await gameOf('scenarios/warmaster/pitched-battle.json');
  const other = await browser.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  other.errors = [];
  other.on('pageerror', (e) => other.errors.push(e.message));
  await giveSeatsFor(other, `${server.url}#${fair.id}`);
  const checked = queryAnswered(other, 'deployment');
  await other.goto(`${server.url}#${fair.id}`);
  await other.waitForSelector('#give-order');
  await checked;
  await settled(other);
  assert.equal(await other.locator('#deployment-warnings').count(), 0);
  assert.deepEqual(other.errors, []);
  await other.close();
});

test('shooting odds before "shoot": the engine\'s target and exact hits', async () => {
  const g = await gameOf('scenarios/warmaster/shooting.json');
  await play(g.id, 'end_orders', 'end_phase');
  const page = await openPage(`${server.url}#${g.id}`);
  await page.waitForSelector('#shooting-odds .odds-target[data-target="orc-trolls"]');
  // Handgunners, 3 dice at trolls in the open (4+), Armour 5+: an unsaved
  // hit is 1/2 x 4/6 = 1/3 a die, so none at all is (2/3)^3 = 29.6%.
  const text = await page.textContent('#shooting-odds');
  assert.match(text, /emp-handgunners → orc-trolls \(27 cm/);
  assert.match(text, /29\.6%/);
  await shot(page, 'warmaster-shooting-odds');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('after a shooting phase with a casualty, the casualty list names the unit and the stands lost', async () => {
  // The first seed whose shooting costs the Orcs a stand.
  let g, hurt;
  for (let seed = 1; seed <= 40 && !hurt; ++seed) {
    g = await post('games', { system: 'warmaster', scenario: JSON.parse(readFileSync(path.join(root, 'scenarios/warmaster/shooting.json'), 'utf8')), seed });
    await play(g.id, 'end_orders', 'end_phase', 'shoot');
    const view = await (await fetch(`${server.url}api/games/${g.id}`)).json();
    hurt = view.state.units.find((u) => u.side === 1 && (u.stands_lost > 0 || u.destroyed));
  }
  assert.ok(hurt, 'no seed of 40 hurt the Orcs');
  const page = await openPage(`${server.url}#${g.id}`);
  await page.waitForSelector('#casualties');
  const text = await page.textContent('#casualties');
  const name = JSON.parse(readFileSync(path.join(root, 'scenarios/warmaster/shooting.json'), 'utf8')).armies[1].units.find((u) => u.id === hurt.id).name ?? hurt.id;
  assert.ok(text.includes(name), `${text} does not name ${name}`);
  assert.match(text, hurt.destroyed ? /Gone: / : new RegExp(`${hurt.stands_lost} stands? lost`));
  assert.match(await page.textContent('#phase-bar li.now'), /3\. Combat/);
  // No engagement: the odds say so, and print nothing else (once a stray "null").
  assert.doesNotMatch(await page.textContent('#controls'), /null/);
  await shot(page, 'warmaster-casualties');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('combat odds in the Combat phase: each engagement\'s win, draw, lose', async () => {
  const g = await gameOf('scenarios/warmaster/combat.json');
  await play(g.id, 'end_orders', 'end_phase', 'shoot');
  const page = await openPage(`${server.url}#${g.id}`);
  await page.waitForSelector('#combat-odds .odds-engagement');
  const q = await post(`games/${g.id}/query`, { name: 'combat_odds' });
  assert.equal(await page.locator('#combat-odds .odds-engagement').count(), q.engagements.length);
  const first = await page.textContent('#combat-odds .odds-engagement[data-engagement="0"]');
  assert.ok(first.includes(`wins ${(q.engagements[0].side_0_wins * 100).toFixed(1)}%`), first);
  // Units in contact stand close: no two of their labels overlap.
  const boxes = await page.evaluate(() => [...document.querySelectorAll('#wm-svg .labels text')].map((t) => {
    const b = t.getBBox();
    return { id: t.textContent, x0: b.x, x1: b.x + b.width, y0: b.y, y1: b.y + b.height };
  }));
  assert.ok(boxes.length >= 8, `${boxes.length} labels`);
  for (let i = 0; i < boxes.length; ++i)
    for (let j = i + 1; j < boxes.length; ++j) {
      const a = boxes[i], b = boxes[j];
      const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0), h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
      assert.ok(w <= 0.05 || h <= 0.05, `labels ${a.id} and ${b.id} overlap`);
    }
  await shot(page, 'warmaster-combat-odds');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('combat decisions: a select per engaged unit, sent with the end_phase', async () => {
  const g = await gameOf('scenarios/warmaster/combat.json');
  await play(g.id, 'end_orders', 'end_phase', 'shoot');
  const page = await openPage(`${server.url}#${g.id}`);
  await page.waitForSelector('#combat-decisions select[data-decision]');
  const q = await post(`games/${g.id}/query`, { name: 'combat_odds' });
  const engaged = [...new Set(q.engagements.flatMap((e) => e.units))];
  assert.equal(await page.locator('#combat-decisions select[data-decision]').count(), engaged.length);
  await page.selectOption(`select[data-decision="${engaged[0]}"]`, 'stand');
  await page.click('#fight-combat');
  await page.waitForFunction((id) => fetch(`api/games/${id}`).then((r) => r.json()).then((v) => v.phase !== 'combat'), g.id);
  const log = await (await fetch(`${server.url}api/games/${g.id}/log`)).text();
  const last = JSON.parse(log.trim().split('\n').at(-1));
  assert.deepEqual(last.action, { type: 'end_phase', decisions: [{ unit: engaged[0], choice: 'stand' }] });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the rotate handle turns the selected unit, checked green while turning', async () => {
  const page = await openPage();
  const id = await page.evaluate(() => location.hash.slice(1));
  const box = await page.locator('polygon.stand[data-unit="emp-halberd-1"][data-stand="1"]').boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.click('#give-order');  // seed 1: 2 and 5, passed
  await page.waitForSelector('#message .rolls');
  const h = await page.locator('circle.rotate-handle[data-rotate="emp-halberd-1"]').boundingBox();
  assert.ok(h, 'a rotate handle on the selected unit');
  const k = await page.evaluate(() => document.getElementById('wm-svg').getScreenCTM().a);
  // The handle is straight ahead (north) of the centre; sweep it 30 degrees clockwise.
  const hx = h.x + h.width / 2, hy = h.y + h.height / 2;
  const cx = hx, cy = hy + (2 / 2 + 9) * k;  // infantry depth 2 cm, HANDLE_AHEAD 9 cm
  const r = cy - hy;
  await page.mouse.move(hx, hy);
  await page.mouse.down();
  for (const deg of [10, 20, 30]) {
    const a = (deg * Math.PI) / 180;
    await page.mouse.move(cx + r * Math.sin(a), cy - r * Math.cos(a), { steps: 2 });
  }
  await page.waitForFunction(() => document.getElementById('wm-svg')?.dataset.dragLegal === 'true');
  assert.equal(await page.evaluate(() => document.getElementById('board').dataset.turn), '30');
  await shot(page, 'warmaster-rotate-handle');
  await page.mouse.up();
  await page.waitForFunction(() => document.querySelector('#log-list')?.children.length === 2);
  const g = await (await fetch(`${server.url}api/games/${id}`)).json();
  for (const st of g.state.units.find((u) => u.id === 'emp-halberd-1').stands) assert.ok(Math.abs(st.facing - 30) < 0.6, `facing ${st.facing}`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("the engine's evade is drawn where initiative offers one, and goes there", async () => {
  const page = await openPage();
  const before = await page.evaluate(() => location.hash);
  await page.selectOption('#battle', 'warmaster/command-crossroads');
  await page.waitForFunction((h) => location.hash !== h, before);
  await page.waitForSelector('#wm-svg polygon.evade-ghost[data-unit="knights"][data-enemy="wolves"]');
  const id = await page.evaluate(() => location.hash.slice(1));
  const plan = await post(`games/${id}/query`, { name: 'evade_plan', args: { unit: 'knights', enemy: 'wolves' } });
  assert.ok(plan.possible);
  assert.match(await page.textContent('#wm-svg .evade-plans'), new RegExp(`evade from Wolf Riders: ${plan.distance} cm`));
  await shot(page, 'warmaster-evade-plan');
  await page.click(`#action-list button[data-action='${JSON.stringify({ kind: 'evade', target: 'wolves', type: 'initiative', unit: 'knights' })}']`);
  await page.waitForSelector('#message .legal');
  const g = await (await fetch(`${server.url}api/games/${id}`)).json();
  const stands = g.state.units.find((u) => u.id === 'knights').stands;
  for (const p of plan.stands) {
    assert.ok(Math.abs(stands[p.stand].x - p.to.x) < 0.01 && Math.abs(stands[p.stand].y - p.to.y) < 0.01, `stand ${p.stand}`);
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the Warmaster board at 390 x 844 and 1280 x 800: drawn, nothing wider than the screen, a unit selectable', async () => {
  for (const [w, hgt] of [[390, 844], [1280, 800]]) {
    const page = await openPage(undefined, w, hgt);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= w + 2, `${width} px wide at ${w}`);
    // A pointer click on the stand; the locator waits until it is drawn and
    // still, since the board may draw the table more than once as it opens.
    await page.locator('polygon.stand[data-unit="emp-halberd-1"][data-stand="1"]').click();
    await page.waitForSelector('#wm-svg path.reach[data-unit="emp-halberd-1"]');
    await page.waitForSelector('#order-needed');
    await shot(page, `warmaster-${w}x${hgt}`);
    if (w === 390) await page.screenshot({ path: path.join(process.env.SCREENSHOTS ?? 'screenshots', 'warmaster-390x844-full.png'), fullPage: true });
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});
