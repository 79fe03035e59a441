// What an action did stays readable on the board: a failed order says
// "Failed" in red with its reason (and the orders panel stops), the end of
// the battle is a banner, a Blightmeer turn's end names who plays
// next in words, and who plays each side survives a reload.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, shot, drawCaptainClimb, api, openBoard, giveSeats, settled } from './support.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

const post = (pathname, body) => api(server, 'POST', pathname, body);

// Opens the board on a game made through the API (the board resumes the id in the address).
const openGame = (game) => openBoard(browser, server, game);

// The button of the action list whose action `want` accepts (there must be one).
async function actionButton(page, want) {
  const actions = await page.locator('#action-list button').evaluateAll((bs) => bs.map((b) => b.dataset.action));
  const k = actions.findIndex((a) => want(JSON.parse(a)));
  assert.ok(k >= 0, `not offered among ${actions.join(' ')}`);
  return page.locator('#action-list button').nth(k);
}

test('Warmaster: an order rolled 6 and 6 fails, in red, with the reason and what follows', async () => {
  // The default battle's first order: the General (Command 9) orders the
  // Halberdiers 26.5 cm away, so 8 or less is needed; the table rolls 6, 6.
  const game = await post('games', { battle: 'warmaster/default', dice: [6, 6] });
  const page = await openGame(game);
  const button = await actionButton(page, (a) => a.type === 'order' && a.character === 'emp-general' &&
    JSON.stringify(a.units) === '["emp-halberd-1"]');
  await button.click();
  await page.waitForSelector('#outcome');
  const head = page.locator('#outcome .outcome-head').first();
  assert.match(await head.textContent(), /^Failed: /);
  assert.equal(await head.getAttribute('class'), 'illegal outcome-head');
  // In names (General Hals is emp-general); the engine's own text, with ids, is the tooltip.
  assert.match(await page.textContent('#outcome .summary'), /rolled 12 against 8 or less: General Hals fails; the General has failed, so no more orders/);
  assert.match(await page.getAttribute('#outcome .summary', 'title'), /emp-general fails/);
  assert.deepEqual(await page.locator('#outcome .rolls span.die').allTextContents(), ['6', '6']);
  // The General's failure ends every order this phase: the panel says so and offers none.
  assert.match(await page.textContent('#orders-stopped'), /General Hals failed an order: no more orders this phase/);
  assert.equal(await page.isDisabled('#give-order'), true);
  await shot(page, 'outcome-failed-order');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('Blightmeer: ending a turn names the next side in words', async () => {
  const game = await post('games', { battle: 'blightmeer/town', seed: 1 });
  const page = await openGame(game);
  await (await actionButton(page, (a) => a.type === 'end_turn')).click();
  await page.waitForSelector('#outcome');
  const text = await page.textContent('#outcome');
  assert.doesNotMatch(text, /object Object/);
  assert.match(text, /Next: turn 1, \S+ to play/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('who plays each side is the game\'s: a reload keeps the built-in opponent', async () => {
  const game = await post('games', { battle: 'warmaster/default', seed: 1 });
  const page = await openGame(game);
  // Side 1 is not to play now, so the opponent waits for its turn.
  await page.selectOption('#player-1', 'opponent');
  // The choice is the server's once its answer has come: then reload.
  for (let k = 0; k < 100 && !(await (await fetch(`${server.url}api/games/${game.id}`)).json()).opponent_sides.length; ++k)
    await new Promise((r) => setTimeout(r, 50));
  await page.reload();
  await page.waitForSelector('#board svg');
  assert.equal(await page.inputValue('#player-1'), 'opponent');
  assert.equal(await page.inputValue('#player-0'), 'you');
  assert.deepEqual(page.errors, []);
  // Kept by the server with the game, not by this browser: a second browser
  // (its own storage) of the same player (given the game's seat tokens)
  // opening the game's link plays the side the same way.
  assert.deepEqual((await (await fetch(`${server.url}api/games/${game.id}`)).json()).opponent_sides, [1]);
  const other = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  const elsewhere = await other.newPage();
  await giveSeats(elsewhere, game);
  await elsewhere.goto(`${server.url}#${game.id}`);
  await elsewhere.waitForFunction(() => document.getElementById('player-1')?.value === 'opponent');
  assert.equal(await elsewhere.inputValue('#player-0'), 'you');
  // Given back to the board there, it is the board's here after a reload.
  // Chosen once: the live updates that arrive meanwhile (the first board
  // connected, then went) redraw the panel's dots, never the select in use.
  await elsewhere.selectOption('#player-1', 'you');
  for (let k = 0; k < 100 && (await (await fetch(`${server.url}api/games/${game.id}`)).json()).opponent_sides.length; ++k)
    await new Promise((r) => setTimeout(r, 50));
  assert.equal(await elsewhere.inputValue('#player-1'), 'you');
  assert.deepEqual((await (await fetch(`${server.url}api/games/${game.id}`)).json()).opponent_sides, []);
  await page.reload();
  await page.waitForSelector('#board svg');
  assert.equal(await page.inputValue('#player-1'), 'you');
  await other.close();
  await page.close();
});

test('Warmaster: at the end of the battle the panels give way to a banner with the result', async () => {
  // One turn, both sides played by the built-in opponent through the API.
  const game = await post('games', { battle: 'warmaster/default', seed: 2, settings: { turn_limit: 1 } });
  let view = game;
  for (let k = 0; k < 20 && !view.terminal; ++k) view = (await post(`games/${game.id}/opponent`, { until: 'player' })).game;
  assert.equal(view.terminal, true);
  const page = await openGame(game);
  await page.waitForSelector('#battle-over');
  const text = await page.textContent('#battle-over');
  assert.match(text, /The battle is over/);
  assert.ok(text.includes(view.result.reason), `${text} lacks ${view.result.reason}`);
  assert.equal(await page.locator('#give-order').count(), 0, 'no order is offered after the end');
  await shot(page, 'warmaster-battle-over');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('Blightmeer: a failed climb says Failed, with each check in words', async () => {
  // The captain's climb onto the inn (one climb check, Agility 8+), rolled 1.
  const game = await post('games', { battle: 'blightmeer/town', dice: [1, 1, 1, 1] });
  const page = await openGame(game);
  await drawCaptainClimb(page);
  await page.click('#bm-resolve');
  await page.waitForSelector('#outcome');
  const head = page.locator('#outcome .outcome-head').first();
  assert.match(await head.textContent(), /^Failed: /);
  assert.match(await page.textContent('#outcome .events'), /climb\): Agility 8\+ check: rolled 1: failed/);
  // The menu names the battle the link opened.
  assert.equal(await page.inputValue('#battle'), 'blightmeer/town');
  await shot(page, 'blightmeer-failed-climb');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the first minute: a how-to names the three phases and what to click, and stays away once dismissed', async () => {
  const game = await post('games', { battle: 'warmaster/default', seed: 1 });
  const page = await openGame(game);
  await page.waitForSelector('#howto');
  const text = await page.textContent('#howto');
  assert.match(text, /1\. Command, 2\. Shooting, 3\. Combat/);
  assert.match(text, /Give order and roll/);
  assert.match(text, /built-in opponent/);
  await shot(page, 'warmaster-howto');
  await page.click('#howto-dismiss');
  assert.equal(await page.locator('#howto').count(), 0);
  await page.reload();
  await page.waitForSelector('#board svg');
  await settled(page);
  assert.equal(await page.locator('#howto').count(), 0, 'dismissed, it stays away');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a phone (390 x 844): every unit is a 24 px touch target, the table zooms with + and a pinch, and pans', async () => {
  const game = await post('games', { battle: 'warmaster/default', seed: 1 });
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, bypassCSP: true, hasTouch: true });
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  await giveSeats(page, game);
  await page.goto(`${server.url}#${game.id}`);
  await page.waitForSelector('#wm-svg');
  const box = (sel) => page.locator(sel).first().evaluate((e) => { const r = e.getBoundingClientRect(); return { w: r.width, h: r.height, x: r.x, y: r.y }; });
  const whole = await page.getAttribute('#wm-svg', 'viewBox');
  // At the default zoom a stand is small, but its unit's touch target is not.
  const stand = await box('#wm-svg polygon.stand[data-unit="emp-halberd-1"]');
  assert.ok(stand.w < 24, `a stand is ${stand.w} px: the touch target is what makes it usable`);
  for (const id of ['emp-halberd-1', 'emp-cannon', 'orc-giant']) {
    const hit = await box(`#wm-svg rect.hit[data-unit="${id}"]`);
    assert.ok(hit.w >= 23.9 && hit.h >= 23.9, `${id}: ${hit.w} x ${hit.h} px`);
  }
  // The order button is in reach without scrolling: at the bottom of the screen.
  const give = await box('#give-order');
  assert.ok(give.y >= 0 && give.y + give.h <= 844 && give.h >= 44, `the order button is at ${give.y} (${give.h} px high)`);
  // Tapping the touch target selects the unit (its reach is shaded).
  const hit = await box('#wm-svg rect.hit[data-unit="emp-cannon"]');
  await page.mouse.click(hit.x + hit.w / 2, hit.y + 1);
  await page.waitForSelector('#wm-svg path.reach[data-unit="emp-cannon"]');
  // Three presses of +: a stand is more than 24 px wide.
  for (let k = 0; k < 3; ++k) await page.click('#zoom-in');
  const zoomed = await box('#wm-svg polygon.stand[data-unit="emp-halberd-1"]');
  assert.ok(zoomed.w >= 24, `zoomed in, a stand is ${zoomed.w} px`);
  // Dragging the empty table pans the view.
  const before = await page.getAttribute('#wm-svg', 'viewBox');
  const svgBox = await box('#wm-svg');
  await page.mouse.move(svgBox.x + 20, svgBox.y + 20);
  await page.mouse.down();
  await page.mouse.move(svgBox.x + 120, svgBox.y + 60, { steps: 6 });
  await page.mouse.up();
  const after = await page.getAttribute('#wm-svg', 'viewBox');
  assert.notEqual(after, before, 'the view moved');
  // A two-finger pinch outwards zooms in further.
  const width = (vb) => Number(vb.split(' ')[2]);
  await page.evaluate(({ x, y }) => {
    const s = document.getElementById('wm-svg');
    const fire = (type, id, px, py) => s.dispatchEvent(new PointerEvent(type, { pointerId: id, pointerType: 'touch', clientX: px, clientY: py, bubbles: true, isPrimary: id === 1 }));
    fire('pointerdown', 1, x - 20, y); fire('pointerdown', 2, x + 20, y);
    for (let k = 1; k <= 5; ++k) { fire('pointermove', 1, x - 20 - 10 * k, y); fire('pointermove', 2, x + 20 + 10 * k, y); }
    fire('pointerup', 1, x - 70, y); fire('pointerup', 2, x + 70, y);
  }, { x: svgBox.x + svgBox.w / 2, y: svgBox.y + 120 });
  const pinched = await page.getAttribute('#wm-svg', 'viewBox');
  assert.ok(width(pinched) < width(after) * 0.6, `${pinched} after ${after}`);
  await shot(page, 'warmaster-phone-zoomed');
  await page.click('#zoom-fit');
  assert.equal(await page.getAttribute('#wm-svg', 'viewBox'), whole);
  assert.deepEqual(page.errors, []);
  await page.close();
});
