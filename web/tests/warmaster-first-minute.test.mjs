// A newcomer's first minute on the Warmaster board: the first visit opens
// the fair battle (the fields of Hochland) with the Orcs played by the
// built-in opponent and the how-to shown; "Next phase" (N) passes through
// the phases where nothing can be done and stops where there is a choice,
// or at every phase with the setting; a brigade ordered by pointer (click,
// then shift-click and Ctrl-click) and by keyboard; home back and an
// off-table return pressed from the keyboard; a character dropped on a unit
// joins it; `referee serve --battle` still opens on its file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launch, shot, screenPoint, api, giveSeatsFor } from './support.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

async function openPage(url = `${server.url}?seed=1`) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  await giveSeatsFor(page, url);
  await page.goto(url);
  await page.waitForSelector('#wm-svg polygon.stand');
  return page;
}
const gameOf = async (page) => (await fetch(`${server.url}api/games/${await page.evaluate(() => location.hash.slice(1))}`)).json();
const turnLine = (page) => page.textContent('#turn-line');

test('a first visit opens the fair battle, the Orcs played by the built-in opponent, with the how-to', async () => {
  const page = await openPage();
  assert.match(await turnLine(page), /Turn 1 · Empire of Hochland · command/);
  assert.equal(await page.inputValue('#battle'), 'warmaster/pitched-battle');
  // The menu says which battle is the fair one against the computer.
  const title = await page.locator('#battle option[value="warmaster/pitched-battle"]').textContent();
  assert.match(title, /^Warmaster: the fair battle against the computer \(the fields of Hochland/);
  assert.equal(await page.inputValue('#player-0'), 'you');
  assert.equal(await page.inputValue('#player-1'), 'opponent');
  assert.ok(await page.locator('#howto').isVisible());
  assert.match(await page.textContent('#howto'), /Next phase/);
  await shot(page, 'warmaster-first-visit');
  // The how-to put away, a unit selected: its reach, the order's odds, and
  // the Next phase control (docs/web-board-warmaster.png).
  await page.click('#howto-dismiss');
  await page.locator('polygon.stand[data-unit="emp-halberd-2"][data-stand="1"]').click();
  await page.waitForSelector('#wm-svg path.reach[data-unit="emp-halberd-2"]');
  await page.waitForSelector('#order-needed');
  assert.ok(await page.locator('#next-phase').isVisible());
  await shot(page, 'warmaster-fair-battle');
  // Every other battle is still in the menu; the default one opens hot-seat.
  const before = await page.evaluate(() => location.hash);
  await page.selectOption('#battle', 'warmaster/default');
  await page.waitForFunction((h) => location.hash !== h, before);
  await page.waitForFunction(() => /Empire of Ostland/.test(document.getElementById('turn-line').textContent));
  assert.equal(await page.inputValue('#player-1'), 'you');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('referee serve --battle still opens on that battle, both sides played at the board', async () => {
  const own = await startServer(['--battle', path.join(root, 'scenarios/warmaster/combat.json')]);
  try {
    const page = await openPage(own.url);
    assert.equal(await page.inputValue('#battle'), 'file/combat.json');
    assert.equal(await page.inputValue('#player-0'), 'you');
    assert.equal(await page.inputValue('#player-1'), 'you');
    assert.deepEqual(page.errors, []);
    await page.close();
  } finally { own.stop(); }
});

test('Next phase passes the phases with nothing to do, stops where there is a choice, and the opponent plays its turn', async () => {
  const page = await openPage();
  assert.match(await page.getAttribute('#next-phase', 'title'), /\(N\)/);
  // N ends the orders: the characters' moves are a choice, so it stops there.
  await page.locator('#wm-svg').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('n');
  await page.waitForFunction(() => /command: characters/.test(document.getElementById('turn-line').textContent));
  assert.equal(await page.locator('#phases-passed').count(), 0);
  // Then the Command phase ends; no unit can shoot at anything and none is in
  // contact, so Shooting and Combat pass; the Orcs' turn is the opponent's.
  await page.click('#next-phase');
  await page.waitForSelector('#phases-passed');
  const passed = await page.locator('#phases-passed li').allTextContents();
  assert.deepEqual(passed, ['End the Command phase', 'Shooting: nothing to shoot at, passed', 'Combat: no unit in contact, passed']);
  await page.waitForSelector('#opponent-report', { timeout: 60000 });
  await page.waitForFunction(() => /Turn 2 · Empire of Hochland · command/.test(document.getElementById('turn-line').textContent), null, { timeout: 60000 });
  await shot(page, 'warmaster-next-phase');
  const g = await gameOf(page);
  const log = (await (await fetch(`${server.url}api/games/${g.id}/log`)).text()).trim().split('\n').slice(1).map((l) => JSON.parse(l));
  assert.deepEqual(log.slice(0, 4).map((e) => e.action.type), ['end_orders', 'end_phase', 'shoot', 'end_phase']);
  assert.ok(log.length > 4, 'the opponent played the Orcs');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('Next phase stops where a unit can shoot', async () => {
  // The missile battle: the Empire's handgunners have the Orcs in range.
  const page = await openPage(`${server.url}#warmaster/shooting`);
  const g0 = await gameOf(page);
  const odds = await (await fetch(`${server.url}api/games/${g0.id}/query`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'shooting_odds', args: {} }) })).json();
  assert.ok(odds.shooters.some((x) => x.target), 'a shooter has a target');
  await page.click('#next-phase');
  await page.waitForFunction(() => /command: characters/.test(document.getElementById('turn-line').textContent));
  await page.click('#next-phase');
  await page.waitForFunction(() => /· shooting$/.test(document.getElementById('turn-line').textContent));
  await page.waitForSelector('#shooting-odds');
  assert.equal(await page.locator('#phases-passed').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('"Stop at every phase" keeps every stop, and is kept across a reload', async () => {
  const page = await openPage();
  await page.check('#stop-every-phase');
  await page.click('#next-phase');
  await page.waitForFunction(() => /command: characters/.test(document.getElementById('turn-line').textContent));
  await page.click('#next-phase');
  await page.waitForFunction(() => /· shooting$/.test(document.getElementById('turn-line').textContent));
  await page.click('#next-phase');
  await page.waitForFunction(() => /· combat$/.test(document.getElementById('turn-line').textContent));
  assert.equal(await page.locator('#phases-passed').count(), 0);
  await page.reload();
  await page.waitForSelector('#stop-every-phase');
  assert.ok(await page.isChecked('#stop-every-phase'));
  assert.match(await turnLine(page), /Turn 1 · Empire of Hochland · combat/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// A system without a built-in opponent (Blightmeer; Ancients has one now):
// its Players panel has the two sides and nothing else.
test('the Players panel of a system without a built-in opponent shows no stray text', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  await page.goto(`${server.url}?seed=1#blightmeer/town`);
  await page.waitForSelector('#bm-svg');
  await page.waitForSelector('#player-1');
  assert.equal(await page.evaluate(() => [...document.getElementById('players').childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).length), 0);
  assert.doesNotMatch(await page.textContent('#players'), /null/);
  await page.close();
});

// The crossroads: halb-a, halb-b and halb-c stand in a line, touching.
test('a brigade ordered by pointer: click, shift-click, Ctrl-click, then "Give order and roll"', async () => {
  const page = await openPage(`${server.url}#warmaster/command-crossroads`);
  assert.match(await page.textContent('#controls .hint'), /shift-click or Ctrl-click adds another/);
  await page.locator('polygon.stand[data-unit="halb-a"][data-stand="1"]').click();
  await page.locator('polygon.stand[data-unit="halb-b"][data-stand="1"]').click({ modifiers: ['Shift'] });
  await page.locator('polygon.stand[data-unit="halb-c"][data-stand="0"]').click({ modifiers: ['Control'] });
  await page.waitForFunction(() => /Halberdiers.*,.*,/.test(document.querySelector('#controls .controls-row strong')?.textContent ?? '')
    || document.querySelector('#controls .controls-row strong')?.textContent.split(',').length === 3);
  await page.waitForSelector('#order-needed');
  await page.click('#give-order');
  await page.waitForSelector('#message .rolls');
  const g = await gameOf(page);
  const log = (await (await fetch(`${server.url}api/games/${g.id}/log`)).text()).trim().split('\n').slice(1).map((l) => JSON.parse(l));
  assert.equal(log[0].action.type, 'order');
  assert.deepEqual([...log[0].action.units].sort(), ['halb-a', 'halb-b', 'halb-c']);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a brigade ordered from the keyboard: the units ticked, then "Give order and roll"', async () => {
  const page = await openPage(`${server.url}#warmaster/command-crossroads`);
  await page.focus('#unit-chooser summary');
  await page.keyboard.press('Enter');
  for (const unit of ['halb-a', 'halb-b']) {
    await page.focus(`#unit-chooser input[data-choose="${unit}"]`);
    await page.keyboard.press('Space');
    await page.waitForFunction((u) => document.querySelector(`#unit-chooser input[data-choose="${u}"]`)?.checked, unit);
  }
  await page.waitForSelector('#order-needed');
  await page.focus('#give-order');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#message .rolls');
  const g = await gameOf(page);
  const log = (await (await fetch(`${server.url}api/games/${g.id}/log`)).text()).trim().split('\n').slice(1).map((l) => JSON.parse(l));
  assert.deepEqual([...log[0].action.units].sort(), ['halb-a', 'halb-b']);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// The crossroads' eagle, a flyer more than 20 cm from every character, may home back.
test('home back from the keyboard: the worded button, focused and pressed with Enter', async () => {
  const page = await openPage(`${server.url}#warmaster/command-crossroads`);
  const button = page.locator('#action-list button', { hasText: /^Home back: .* toward Captain Brandt$/ });
  await button.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('#log-list')?.children.length === 1);
  const g = await gameOf(page);
  const log = (await (await fetch(`${server.url}api/games/${g.id}/log`)).text()).trim().split('\n').slice(1).map((l) => JSON.parse(l));
  assert.deepEqual(log[0].action, { type: 'home_back', unit: 'eagle', character: 'emp-hero' });
  assert.ok(g.state.units.find((u) => u.id === 'eagle').homed_back);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// Knights 1 of the fair battle ridden off the west edge, a 1 rolled: they
// wait off the table and roll to come back at the start of the next turn.
test('an off-table return from the keyboard: the worded button, focused and pressed with Enter', async () => {
  const post = (p, body) => api(server, 'POST', p, body);
  const game = await post('games', { battle: 'warmaster/pitched-battle', dice: [1, 1, 1, ...Array(20).fill(6)] });
  const play = async (action) => assert.ok((await post(`games/${game.id}/apply`, { action })).applied, action.type);
  await play({ type: 'order', character: 'emp-hero', unit: 'emp-knights-1' });
  await play({ type: 'move', moves: [{ unit: 'emp-knights-1', stands: [0, 2, 4].map((x, stand) => ({ stand, to: { x, y: 22, facing: 0 } })) }] });
  for (const type of ['end_phase', 'shoot', 'end_phase', 'end_phase', 'shoot', 'end_phase']) await play({ type });
  const page = await openPage(`${server.url}#${game.id}`);
  assert.match(await turnLine(page), /Turn 2 · Empire of Hochland/);
  const button = page.locator('#action-list button', { hasText: 'Roll for Knights 1 to come back onto the table' });
  await button.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('#log-list')?.children.length === 9);
  const log = (await (await fetch(`${server.url}api/games/${game.id}/log`)).text()).trim().split('\n').slice(1).map((l) => JSON.parse(l));
  assert.deepEqual(log.at(-1).action, { type: 'off_table_return', unit: 'emp-knights-1' });
  assert.deepEqual(log.at(-1).rolls.map((r) => r.value), [6]);
  // A 6: back at the point where they left, on the table (the rule's 6: "may move as normal").
  const knights = (await gameOf(page)).state.units.find((u) => u.id === 'emp-knights-1');
  assert.equal(knights.off_table, false);
  assert.equal(knights.stands.length, 3);
  await page.waitForSelector('#wm-svg polygon.stand[data-unit="emp-knights-1"]');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a character dragged onto a unit of its own joins it', async () => {
  const page = await openPage(`${server.url}#warmaster/command-crossroads`);
  await page.click('#next-phase');  // on to the characters' moves
  await page.waitForFunction(() => /command: characters/.test(document.getElementById('turn-line').textContent));
  // The General (52, 12) onto halb-b's middle stand (52, 20): 1 cm behind its rear edge.
  const from = await screenPoint(page, 'wm-svg', 120, 52, 12);
  const to = await screenPoint(page, 'wm-svg', 120, 52, 18);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 4 });
  await page.waitForFunction(() => document.getElementById('wm-svg')?.dataset.dragLegal !== undefined);
  await page.waitForFunction(() => /joining/.test(document.getElementById('message').textContent));
  await page.mouse.up();
  await page.waitForFunction(() => document.querySelector('#log-list')?.children.length === 2);
  const g = await gameOf(page);
  const general = g.state.characters.find((c) => c.id === 'emp-general');
  assert.equal(general.joined_unit, 'halb-b');
  assert.deepEqual(page.errors, []);
  await page.close();
});
