// The Warmaster board in a browser: the default battle loads, a unit's reach
// is shaded and the order's odds shown, an order is rolled with seed 1 and
// the dice shown are the game's, a stand dragged to a legal spot turns green
// and moves, one dragged too far turns red with the rule and reason the
// command line gives; then undo, save the log, load it, and replay.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startServer, launch, shot, screenshots } from './support.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

// Centre of a stand on the screen.
async function standAt(page, unit, stand = 0) {
  const box = await page.locator(`polygon.stand[data-unit="${unit}"][data-stand="${stand}"]`).boundingBox();
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}
// Screen pixels per table centimetre.
async function pxPerCm(page) {
  return page.evaluate(() => {
    const s = document.getElementById('wm-svg');
    return s.getScreenCTM().a;
  });
}

test('the default Warmaster battle: reach, odds, an order rolled, legal and illegal drags, undo, log, replay', async () => {
  // bypassCSP: the test's own probes (waitForFunction) are evaluated script,
  // which the board's policy rightly forbids to everything else.
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // The default battle by its address (a first visit opens the fair battle).
  await page.goto(`${server.url}?seed=1#warmaster/default`);
  await page.waitForSelector('#wm-svg polygon.stand');
  // From the start of navigation to the board drawn, by the page's own clock.
  const firstLoadMs = Number(await page.evaluate(() => document.body.dataset.readyMs));
  console.log(`first page load of the default battle, from a cold server: ${firstLoadMs.toFixed(0)} ms`);
  assert.match(await page.textContent('#turn-line'), /Turn 1 · Empire of Ostland/);

  // Select the Halberdiers: reach and the order's odds.
  const at = await standAt(page, 'emp-halberd-1', 1);
  await page.mouse.click(at.x, at.y);
  await page.waitForSelector('#wm-svg path.reach[data-unit="emp-halberd-1"]');
  await page.waitForSelector('#order-needed');
  // Command 9, -1 for the 26.5 cm to the General: 8 or less, 26/36.
  assert.match(await page.textContent('#order-needed'), /Needs 8 or less on 2D6 \(26\/36 = 72\.2%\)/);
  await shot(page, 'warmaster-reach-and-odds');

  // Seed 1 rolls 2 and 5: passed.
  await page.click('#give-order');
  await page.waitForSelector('#message .rolls');
  const dice = await page.locator('#message .rolls span.die').allTextContents();
  assert.deepEqual(dice, ['2', '5']);
  const id = await page.evaluate(() => location.hash.slice(1));
  const log = await (await fetch(`${server.url}api/games/${id}/log`)).text();
  assert.deepEqual(JSON.parse(log.split('\n')[1]).rolls.map((r) => r.value), [2, 5]);

  // Drag 10 cm north: legal, green, and applied on release.
  const k = await pxPerCm(page);
  let from = await standAt(page, 'emp-halberd-1', 1);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x, from.y - 5 * k, { steps: 3 });
  await page.mouse.move(from.x, from.y - 10 * k, { steps: 3 });
  await page.waitForFunction(() => document.getElementById('wm-svg')?.dataset.dragLegal === 'true');
  await shot(page, 'warmaster-drag-legal');
  const redraws = (await page.evaluate(() => document.getElementById('board').dataset.redrawMs)).split(',').map(Number).sort((a, b) => a - b);
  assert.ok(redraws.length >= 6);
  console.log(`table and reach redrawn on pointer move: median ${redraws[redraws.length >> 1]} ms, max ${redraws[redraws.length - 1]} ms over ${redraws.length} moves`);
  await page.mouse.up();
  await page.waitForFunction(() => document.querySelector('#log-list')?.children.length === 2);
  const state = await (await fetch(`${server.url}api/games/${id}`)).json();
  const moved = state.state.units.find((u) => u.id === 'emp-halberd-1').stands[1];
  assert.ok(Math.abs(moved.y - 30) < 0.6, `moved to y ${moved.y}`);

  // A second order, then a drag 30 cm north: too far, red, with the rule.
  await page.mouse.click(from.x, from.y - 10 * k);
  await page.click('#give-order');
  await page.waitForSelector('#message .rolls');
  from = await standAt(page, 'emp-halberd-1', 1);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x, from.y - 30 * k, { steps: 4 });
  await page.waitForFunction(() => document.getElementById('wm-svg')?.dataset.dragLegal === 'false');
  await page.waitForSelector('#message .illegal');
  const rules = await page.locator('#message .rule').allTextContents();
  assert.ok(rules.some((r) => r.startsWith('warmaster.')), rules.join(', '));
  const reason = await page.textContent('#message .violations');
  assert.match(reason, /cm/);
  await shot(page, 'warmaster-drag-illegal');
  await page.mouse.up();
  // Refused drags are not applied.
  const after2 = await (await fetch(`${server.url}api/games/${id}`)).json();
  assert.equal(after2.state.units.find((u) => u.id === 'emp-halberd-1').stands[1].y, moved.y);

  // Undo the second order, save the log, load it back, replay from the start.
  const position = after2.position;
  await page.click('#undo');
  await page.waitForFunction((p) => document.querySelector('#log-list').children.length === p - 1, position);
  const download = page.waitForEvent('download');
  await page.click('#save-log');
  const file = path.join(screenshots, 'warmaster-game.jsonl');
  await (await download).saveAs(file);
  assert.equal(readFileSync(file, 'utf8').trim().split('\n').length, position);  // header + entries
  await page.setInputFiles('#load-log', file);
  await page.waitForFunction((old) => location.hash.slice(1) !== old, id);
  assert.equal(await page.locator('#log-list li').count(), position - 1);
  await page.locator('#replay-step').fill('0');
  await page.waitForFunction(() => /step 0 of \d+ \(the start\)/.test(document.getElementById('replay-label').textContent));
  // Step 1 is named by its action, in words.
  await page.locator('#replay-step').fill('1');
  await page.waitForFunction(() => /^step 1 of \d+: Order /.test(document.getElementById('replay-label').textContent));
  await page.locator('#replay-step').fill('0');
  await page.waitForFunction(() => /step 0 of/.test(document.getElementById('replay-label').textContent));
  const y0 = await page.evaluate(() => document.querySelector('polygon.stand[data-unit="emp-halberd-1"][data-stand="1"]').getAttribute('points'));
  await page.click('#replay-live');
  const yLive = await page.evaluate(() => document.querySelector('polygon.stand[data-unit="emp-halberd-1"][data-stand="1"]').getAttribute('points'));
  assert.notEqual(y0, yLive);
  await shot(page, 'warmaster-after-replay');
  assert.deepEqual(errors, []);
});
