// A charge made by dragging, as at the table: an ordered unit dragged up to
// an enemy is offered the charge (drawn before release), and releasing makes
// it; a unit dragged out and back makes no move and keeps its order; an
// order that would give up another unit's move asks first; a unit re-forms
// stand by stand.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, shot, screenPoint, api, openBoard } from './support.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

const call = (method, pathname, body) => api(server, method, pathname, body);

// The default battle with the Orc Boyz 12 cm in front of the Halberdiers
// (front edge to front edge), and dice that pass the General's order.
async function faceToFace() {
  const scenario = await call('GET', 'battles/warmaster/default');
  const orcs = scenario.armies[1].units.find((u) => u.id === 'orc-boyz-1');
  orcs.stands = [56, 60, 64].map((x) => ({ x, y: 34, facing: 180 }));
  return call('POST', 'games', { system: 'warmaster', scenario, dice: [1, 1, 1, 1, 1, 1] });
}

const open = (game) => openBoard(browser, server, game, { selector: '#wm-svg' });

// The screen point of a table point (cm) on the default battle's 120 cm deep table.
const screenOf = (page, x, y) => screenPoint(page, 'wm-svg', 120, x, y);

async function orderHalberdiers(page) {
  const actions = await page.locator('#action-list button').evaluateAll((bs) => bs.map((b) => b.dataset.action));
  const k = actions.findIndex((a) => { const x = JSON.parse(a); return x.type === 'order' && x.character === 'emp-general' && x.units?.[0] === 'emp-halberd-1'; });
  assert.ok(k >= 0, actions.join(' '));
  await page.locator('#action-list button').nth(k).click();
  await page.waitForSelector('#outcome');
  assert.equal(await page.textContent('#outcome .outcome-head'), 'Passed: Order Halberdiers 1 (General Hals)');
}

// Drags from a table point (default the middle Halberdier stand, (60, 20))
// through the points of `path` (cm), the button held.
async function drag(page, path, from = [60, 20]) {
  let at = await screenOf(page, ...from);
  await page.mouse.move(at.x, at.y);
  await page.mouse.down();
  for (const [x, y] of path) {
    const to = await screenOf(page, x, y);
    await page.mouse.move(to.x, to.y, { steps: 8 });
    at = to;
  }
}

test('an ordered unit dragged up to an enemy is offered the charge, and charges on release', async () => {
  const game = await faceToFace();
  const page = await open(game);
  await orderHalberdiers(page);
  // 11 cm on: 1 cm short of the Orcs' front, where a plain move would stop.
  await drag(page, [[60, 31]]);
  await page.waitForSelector('#wm-svg polygon.charge-ghost[data-target="orc-boyz-1"]');
  await page.waitForFunction(() => /release to charge Orc Boyz 1/.test(document.getElementById('wm-svg').textContent));
  // The verdict on the last pose of the drag (a check of a pose on the way may come first).
  await page.waitForFunction(() => /Legal: Halberdiers 1 charges Orc Boyz 1 \(lined up edge to edge\)/.test(document.getElementById('message').textContent));
  await shot(page, 'warmaster-charge-offered');
  await page.mouse.up();
  await page.waitForFunction(() => document.querySelectorAll('#log-list li').length === 2);
  const view = await call('GET', `games/${game.id}`);
  const moved = view.state.units.find((u) => u.id === 'emp-halberd-1');
  assert.equal(moved.engaged, true, JSON.stringify(moved));
  // Lined up on the Orcs' front: the Halberdiers' front edge (y + 1) meets theirs (34 - 1).
  for (const st of moved.stands) assert.ok(Math.abs(st.y + 1 - 33) < 0.05, JSON.stringify(moved.stands));
  const log = await call('GET', `games/${game.id}/entries/1`);
  assert.equal(log.entries[0].action.moves[0].kind, 'charge');
  assert.equal(log.entries[0].action.moves[0].target, 'orc-boyz-1');
  await shot(page, 'warmaster-charged');
  assert.deepEqual(page.errors, []);
  await page.close();
});

// The Orc Boyz turned 20 degrees off square (facing 160), 16 cm ahead.
async function askew() {
  const scenario = await call('GET', 'battles/warmaster/default');
  const orcs = scenario.armies[1].units.find((u) => u.id === 'orc-boyz-1');
  const f = (160 * Math.PI) / 180;
  const right = [Math.cos(f), -Math.sin(f)];
  orcs.stands = [-1, 0, 1].map((k) => ({ x: 60 + right[0] * 4 * k, y: 36 + right[1] * 4 * k, facing: 160 }));
  return call('POST', 'games', { system: 'warmaster', scenario, dice: [1, 1, 1, 1, 1, 1] });
}

test('a charge dragged at an angle lands lined up edge to edge (Moving Chargers)', async () => {
  const game = await askew();
  const page = await open(game);
  await orderHalberdiers(page);
  // Dragged straight up, still facing north: released, it lines up on the Orcs' front.
  await drag(page, [[60, 31]]);
  await page.waitForSelector('#wm-svg polygon.charge-ghost[data-target="orc-boyz-1"]');
  await page.waitForFunction(() => /Legal: Halberdiers 1 charges Orc Boyz 1 \(lined up edge to edge\)/.test(document.getElementById('message').textContent));
  await shot(page, 'warmaster-charge-askew-offered');
  await page.mouse.up();
  await page.waitForFunction(() => document.querySelectorAll('#log-list li').length === 2);
  const view = await call('GET', `games/${game.id}`);
  const moved = view.state.units.find((u) => u.id === 'emp-halberd-1');
  assert.equal(moved.engaged, true, JSON.stringify(moved));
  // Turned to face the Orcs square on: facing 340, the reverse of their 160.
  for (const st of moved.stands) assert.ok(Math.abs(st.facing - 340) < 0.01, JSON.stringify(moved.stands));
  // The first stand's front edge lies on the Orcs' front edge line: its front
  // centre is 1 cm (half a stand's depth) ahead of its centre, on that line.
  const orcs = view.state.units.find((u) => u.id === 'orc-boyz-1');
  const n = [Math.sin((160 * Math.PI) / 180), Math.cos((160 * Math.PI) / 180)];
  const line = orcs.stands[1].x * n[0] + orcs.stands[1].y * n[1] + 1;
  const onLine = moved.stands.filter((st) => Math.abs(st.x * n[0] + st.y * n[1] - 1 - line) < 0.05);
  assert.ok(onLine.length >= 1, JSON.stringify({ moved: moved.stands, orcs: orcs.stands }));
  await shot(page, 'warmaster-charged-askew');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a unit dragged out and back makes no move and keeps its order', async () => {
  const game = await faceToFace();
  const page = await open(game);
  await orderHalberdiers(page);
  await drag(page, [[60, 26], [60, 20]]);
  await page.mouse.up();
  await page.waitForSelector('#no-move');
  assert.match(await page.textContent('#no-move'), /Halberdiers 1 is back where it began: no move is made/);
  const view = await call('GET', `games/${game.id}`);
  assert.equal(view.position, 1, 'only the order is in the log');
  assert.deepEqual(view.state.pending?.units, ['emp-halberd-1']);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('an order that would give up another unit\'s move asks first', async () => {
  const game = await faceToFace();
  const page = await open(game);
  await orderHalberdiers(page);
  const actions = await page.locator('#action-list button').evaluateAll((bs) => bs.map((b) => b.dataset.action));
  const k = actions.findIndex((a) => { const x = JSON.parse(a); return x.type === 'order' && x.units?.[0] === 'emp-crossbow'; });
  assert.ok(k >= 0, actions.join(' '));
  await page.locator('#action-list button').nth(k).click();
  await page.waitForSelector('#confirm');
  assert.match(await page.textContent('#confirm'), /Halberdiers 1 has a move to make\. "Order Crossbowmen \(General Hals\)" gives it up\. Go on\?/);
  // No: nothing is sent, the move still stands.
  await page.click('#confirm-no');
  assert.equal((await call('GET', `games/${game.id}`)).position, 1);
  // Yes: the order is given.
  await page.locator('#action-list button').nth(k).click();
  await page.click('#confirm-yes');
  await page.waitForFunction(() => document.querySelectorAll('#log-list li').length === 2);
  assert.deepEqual((await call('GET', `games/${game.id}`)).state.pending?.units, ['emp-crossbow']);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('re-forming stand by stand: the Halberdiers form a column, and the move is made as one', async () => {
  const game = await faceToFace();
  const page = await open(game);
  await orderHalberdiers(page);
  await page.check('#stand-by-stand');
  // Stands 1 and 2 go behind stand 0 (56, 20), each touching the one in front (stands are 2 cm deep).
  await drag(page, [[56, 18]], [60, 20]);
  await page.mouse.up();
  await page.waitForSelector('#make-move');
  await drag(page, [[56, 16]], [64, 20]);
  await page.mouse.up();
  await page.waitForFunction(() => document.getElementById('make-move')?.disabled === false);
  await shot(page, 'warmaster-reform-column');
  // Nothing is sent until the move is made.
  assert.equal((await call('GET', `games/${game.id}`)).position, 1);
  await page.click('#make-move');
  await page.waitForFunction(() => document.querySelectorAll('#log-list li').length === 2);
  const moved = (await call('GET', `games/${game.id}`)).state.units.find((u) => u.id === 'emp-halberd-1');
  assert.deepEqual(moved.stands.map((st) => [Math.round(st.x * 10) / 10, Math.round(st.y * 10) / 10]), [[56, 20], [56, 18], [56, 16]]);
  assert.deepEqual(page.errors, []);
  await page.close();
});
