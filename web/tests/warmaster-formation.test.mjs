// The formation helpers on the Warmaster board, through pointer events only:
// an ordered unit of the pitched battle formed into a column along a path
// dragged from it, then (ordered again) back into a line facing a point
// clicked on the table. The engine plans each (the formation_plan query):
// the ghost is drawn with each stand green or red, and "Make this move"
// makes it. A path too long is red and not made; Escape cancels.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launch, shot, screenPoint, screenshots, api, openBoard } from './support.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

const call = (method, pathname, body) => api(server, method, pathname, body);

// The pitched battle (a 180 x 120 cm table), with dice that pass every order.
async function pitchedBattle() {
  const scenario = JSON.parse(readFileSync(path.join(root, 'scenarios/warmaster/pitched-battle.json'), 'utf8'));
  return call('POST', 'games', { system: 'warmaster', scenario, dice: Array(12).fill(1) });
}

const screenOf = (page, x, y) => screenPoint(page, 'wm-svg', 120, x, y);
const halberdiers = async (game) => (await call('GET', `games/${game.id}`)).state.units.find((u) => u.id === 'emp-halberd-1');
const logLength = (page, n) => page.waitForFunction((k) => document.querySelectorAll('#log-list li').length === k, n);

// The General orders the first Halberdiers (the action's button), then a
// click on their middle stand selects them.
async function order(page, n, at) {
  const actions = await page.locator('#action-list button').evaluateAll((bs) => bs.map((b) => b.dataset.action));
  const k = actions.findIndex((a) => { const x = JSON.parse(a); return x.type === 'order' && x.character === 'emp-general' && (x.unit ?? x.units?.[0]) === 'emp-halberd-1'; });
  assert.ok(k >= 0, actions.join(' '));
  await page.locator('#action-list button').nth(k).click();
  await logLength(page, n);
  const p = await screenOf(page, ...at);
  await page.mouse.click(p.x, p.y);
  await page.waitForSelector('#form-column');
}

// Presses at `from` and drags through `way` (table cm), the button held.
async function dragPath(page, from, way) {
  const p = await screenOf(page, ...from);
  await page.mouse.move(p.x, p.y);
  await page.mouse.down();
  for (const [x, y] of way) {
    const q = await screenOf(page, x, y);
    await page.mouse.move(q.x, q.y, { steps: 10 });
  }
}

// A close-up of the table from (x0, y0) to (x1, y1) (cm), beside the whole page's shot.
async function closeUp(page, name, [x0, y0, x1, y1]) {
  await shot(page, name);
  const a = await screenOf(page, x0, y1), b = await screenOf(page, x1, y0);
  await page.screenshot({ path: path.join(screenshots, `${name}-close.png`), clip: { x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y } });
}

const ghosts = (page) => page.locator('#wm-svg polygon.formation-ghost');
const faults = (page) => page.locator('#wm-svg polygon.formation-ghost.fault');

test('a unit formed into a column along a dragged path, then into a line facing a clicked point', async () => {
  const game = await pitchedBattle();
  const page = await openBoard(browser, server, game, { selector: '#wm-svg polygon.stand' });
  // Halberdiers 1: three stands at x 50, 54, 58, y 22, facing north.
  await order(page, 1, [54, 22]);

  // A path 28 cm long: over the 20 cm pace; every stand red, nothing to make.
  await page.click('#form-column');
  await page.waitForSelector('#formation-hint');
  await dragPath(page, [54, 22], [[54, 36], [54, 50]]);
  await page.waitForSelector('#wm-svg polyline.formation-path', { state: 'attached' });
  await page.mouse.up();
  await page.waitForFunction(() => document.querySelectorAll('#wm-svg polygon.formation-ghost.fault').length === 3);
  assert.ok(await page.locator('#make-move').isDisabled());
  assert.match(await page.textContent('#message'), /warmaster\.movement\.distance/);
  await closeUp(page, 'warmaster-formation-column-too-far', [30, 10, 80, 60]);
  // Escape cancels: no ghost, no helper under way.
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.querySelector('#wm-svg polygon.formation-ghost') && !document.getElementById('formation-hint'));

  // 12 cm north: the column's ghost follows the drag, all green on release.
  await page.click('#form-column');
  await dragPath(page, [54, 22], [[54, 28], [54, 34]]);
  await page.waitForFunction(() => document.querySelectorAll('#wm-svg polygon.formation-ghost').length === 3);
  await page.mouse.up();
  await page.waitForFunction(() => document.getElementById('make-move')?.disabled === false);
  assert.equal(await ghosts(page).count(), 3);
  assert.equal(await faults(page).count(), 0);
  await closeUp(page, 'warmaster-formation-column', [30, 10, 80, 45]);
  assert.equal((await call('GET', `games/${game.id}`)).position, 1, 'nothing is sent before the move is made');
  await page.click('#make-move');
  await logLength(page, 2);
  let u = await halberdiers(game);
  // One behind another north from (54, 34), each 2 cm (a stand's depth) behind the one ahead: touching front to back.
  const ys = u.stands.map((st) => st.y).sort((a, b) => b - a);
  for (const st of u.stands) { assert.ok(Math.abs(st.x - 54) < 0.01, JSON.stringify(u.stands)); assert.ok(Math.abs(st.facing) < 0.01); }
  assert.deepEqual(ys.map((y) => Math.round(y * 100) / 100), [34, 32, 30]);

  // Ordered again, the column forms a line facing a point to the north-east
  // of its centre (54, 32): bearing 45 degrees.
  await order(page, 3, [54, 32]);
  await page.click('#form-line');
  const p = await screenOf(page, 80, 58);
  await page.mouse.click(p.x, p.y);
  await page.waitForFunction(() => document.getElementById('make-move')?.disabled === false);
  assert.equal(await ghosts(page).count(), 3);
  assert.equal(await faults(page).count(), 0);
  await page.waitForSelector('#wm-svg circle.formation-point', { state: 'attached' });
  await closeUp(page, 'warmaster-formation-line', [30, 15, 90, 65]);
  await page.click('#make-move');
  await logLength(page, 4);
  u = await halberdiers(game);
  for (const st of u.stands) assert.ok(Math.abs(st.facing - 45) < 0.01, JSON.stringify(u.stands));
  // Side by side: along the line (at right angles to the facing) 4 cm apart, none ahead of another.
  const across = u.stands.map((st) => ({ along: (st.x - 54) * Math.cos(Math.PI / 4) - (st.y - 32) * Math.sin(Math.PI / 4), ahead: (st.x - 54) * Math.sin(Math.PI / 4) + (st.y - 32) * Math.cos(Math.PI / 4) }))
    .sort((a, b) => a.along - b.along);
  assert.deepEqual(across.map((a) => Math.round(a.along * 100) / 100), [-4, 0, 4]);
  for (const a of across) assert.ok(Math.abs(a.ahead) < 0.01, JSON.stringify(across));
  assert.deepEqual(page.errors, []);
  await page.close();
});
