// Two players at two browsers and a spectator at a third (three browser
// contexts: their own storage, as three computers): A opens the board and
// uses "Play a friend" (the Empire in the fields of Hochland; the Orcs left
// to the friend, not to the built-in opponent), reads the invitation from
// the page; B opens it and joins; C opens the spectator's link. A and B play
// a whole Warmaster turn each through pointer and keyboard events, and every
// action shows on the other two boards without a reload (live updates). C
// watches with nothing to act with, and the server refuses its attempt to
// act (403); B's seat cannot act for A's side (403).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, shot } from './support.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

// A page in a context of its own (a browser of its own: its own storage).
async function person(url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  await page.goto(url);
  return page;
}

// What a page shows of the game: the turn line, the log's length, and where
// a stand of a unit is drawn (its points).
const logLength = (page) => page.locator('#log-list li').count();
const standAt = (page, unit) => page.getAttribute(`polygon.stand[data-unit="${unit}"][data-stand="0"]`, 'points');
const whoseTurn = (page) => page.getAttribute('#whose-turn', 'data-kind');

// Waits (a few seconds at most) until every page's log has `n` lines.
async function logsReach(pages, n) {
  await Promise.all(pages.map((p) => p.waitForFunction((k) => document.querySelectorAll('#log-list li').length === k, n, { timeout: 5000 })));
}

// A fetch of /apply from a page's own script: the seat tokens it sends are
// the ones the test gives (none for a spectator), the answer's status back.
function applyFrom(page, id, tokens, action) {
  return page.evaluate(async ([id, tokens, action]) => {
    const headers = { 'Content-Type': 'application/json' };
    if (tokens) headers['X-Referee-Seat'] = tokens;
    const r = await fetch(`/api/games/${id}/apply`, { method: 'POST', headers, body: JSON.stringify({ action }) });
    return { status: r.status, body: await r.json().catch(() => null) };
  }, [id, tokens, action]);
}

// The board's own seat tokens, as it sends them.
const tokensOf = (page, id) => page.evaluate((id) => JSON.parse(localStorage.getItem(`referee.seats.${id}`) ?? '[]').map((s) => s.token).join(','), id);

// Gives an order to `unit` on the page's board (click, then the button),
// and, when it passes, drags the unit `cm` centimetres up the screen
// (negative: down): the number of log lines added (1 when the order failed).
async function orderAndMove(page, unit, cm) {
  const stand = page.locator(`polygon.stand[data-unit="${unit}"][data-stand="1"]`);
  await stand.click();
  await page.waitForSelector('#give-order:not([disabled])');
  const before = await logLength(page);
  await page.click('#give-order');
  await page.waitForFunction((n) => document.querySelectorAll('#log-list li').length === n + 1, before);
  const passed = !/^Failed/.test(await page.textContent('#outcome .outcome-head'));
  if (!passed) return 1;
  const box = await stand.boundingBox();
  const k = await page.evaluate(() => document.getElementById('wm-svg').getScreenCTM().a);  // px per cm
  const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await page.mouse.move(at.x, at.y);
  await page.mouse.down();
  await page.mouse.move(at.x, at.y - (cm / 2) * k, { steps: 3 });
  await page.mouse.move(at.x, at.y - cm * k, { steps: 3 });
  await page.waitForFunction(() => document.getElementById('wm-svg')?.dataset.dragLegal === 'true');
  await page.mouse.up();
  await page.waitForFunction((n) => document.querySelectorAll('#log-list li').length === n + 2, before);
  return 2;
}

// Presses N (Next phase) until the side's turn is over; the other pages
// follow each action. A question before giving up a move is answered yes.
async function endTurn(page, others) {
  for (let k = 0; k < 8 && (await whoseTurn(page)) === 'mine'; ++k) {
    const before = await logLength(page);
    await page.locator('#wm-svg').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('n');
    await page.waitForFunction((n) => document.querySelectorAll('#log-list li').length > n || document.getElementById('confirm-yes'), before);
    if (await page.locator('#confirm-yes').count()) await page.click('#confirm-yes');
    await page.waitForFunction(() => !document.body.dataset.passing);
  }
  assert.notEqual(await whoseTurn(page), 'mine', 'the turn passed to the other side');
  await logsReach(others, await logLength(page));
}

test('Play a friend: A invites B, C watches; a whole turn each, every action seen live on the other boards; C and B refused where the seat is not theirs', { timeout: 120000 }, async () => {
  // A: the first visit (the fair battle), then Play a friend, taking the Empire.
  const a = await person(server.url);
  await a.waitForSelector('#wm-svg polygon.stand');
  await a.click('#howto-dismiss');
  await a.focus('#play-friend');
  await a.keyboard.press('Enter');
  await a.waitForSelector('#friend-dialog[open] #friend-side');
  const sides = await a.locator('#friend-side option').allTextContents();
  assert.deepEqual(sides, ['Empire of Hochland', 'Orcs of the Red Fang']);
  await a.selectOption('#friend-side', { label: 'Empire of Hochland' });
  await a.click('#friend-create');
  await a.waitForSelector('#invite-link');
  const invite = await a.inputValue('#invite-link');
  const watch = await a.inputValue('#watch-link');
  const id = await a.evaluate(() => location.hash.slice(1));
  assert.match(id, /^[0-9a-f]{32}$/);
  assert.equal(invite, `${server.url}#join/${id}/1/${invite.slice(-32)}`);
  assert.match(invite.slice(-32), /^[0-9a-f]{32}$/);
  assert.equal(watch, `${server.url}#watch/${id}`);
  assert.match(await a.textContent('#friend-dialog'), /it gives them Orcs of the Red Fang/);
  await shot(a, 'friend-a-invitation');
  await a.click('#friend-close');
  // A new game of the fields of Hochland with nobody's side given to the built-in opponent.
  const view = await (await fetch(`${server.url}api/games/${id}`)).json();
  assert.equal(view.battle, 'warmaster/pitched-battle');
  assert.deepEqual(view.opponent_sides, []);
  assert.equal(await whoseTurn(a), 'mine');
  assert.match(await a.textContent('#whose-turn'), /Your turn: you play Empire of Hochland/);
  assert.equal(await a.getAttribute('#presence-1', 'data-state'), 'invited');

  // B: the invitation joins the Orcs; the address keeps no token.
  const b = await person(invite);
  await b.waitForSelector('#wm-svg polygon.stand');
  await b.waitForFunction((id) => location.hash === `#${id}`, id);
  assert.match(await b.textContent('#joined'), /You joined the game: you play Orcs of the Red Fang/);
  assert.equal(await whoseTurn(b), 'waiting');
  assert.match(await b.textContent('#whose-turn'), /Waiting for Empire of Hochland's player/);
  assert.equal(await b.locator('#give-order, #next-phase').count(), 0, 'nothing to act with on the other side\'s turn');
  // A sees B connected.
  await a.waitForFunction(() => document.getElementById('presence-1')?.dataset.state === 'on', null, { timeout: 5000 });
  // The invitation is used up: opened again elsewhere, it says so and offers to watch.
  const late = await person(invite);
  await late.waitForSelector('#no-game');
  assert.match(await late.textContent('#no-game'), /This invitation cannot be used/);
  assert.ok(await late.locator('#watch-instead').isVisible());
  await late.context().close();

  // C: the spectator's link.
  const c = await person(watch);
  await c.waitForSelector('#wm-svg polygon.stand');
  assert.equal(await whoseTurn(c), 'watching');
  assert.match(await c.textContent('#whose-turn'), /You are watching this game/);
  assert.equal(await c.locator('#give-order, #next-phase').count(), 0);
  assert.equal(await c.locator('#action-list button').count(), 0);
  assert.equal(await c.isDisabled('#undo'), true);
  await a.waitForFunction(() => /1 watching/.test(document.getElementById('spectators')?.textContent ?? ''), null, { timeout: 5000 });
  await shot(c, 'friend-c-watching');

  // The server refuses C (no seat) and B's seat on the Empire's turn.
  const endOrders = { type: 'end_orders' };
  const fromC = await applyFrom(c, id, null, endOrders);
  assert.equal(fromC.status, 403);
  assert.equal(fromC.body?.error?.field, 'seat');
  const bTokens = await tokensOf(b, id);
  assert.match(bTokens, /^[0-9a-f]{32}$/);
  const fromB = await applyFrom(b, id, bTokens, endOrders);
  assert.equal(fromB.status, 403);
  assert.match(fromB.body?.error?.message ?? '', /Empire/);
  assert.equal((await (await fetch(`${server.url}api/games/${id}`)).json()).position, 0, 'nothing applied');

  // A's turn: an order and a move, each seen on B's and C's boards.
  const halberdsBefore = await standAt(b, 'emp-halberd-2');
  const n = await orderAndMove(a, 'emp-halberd-2', 10);
  // Seed 1: the order passes (the game's dice), so the move is made.
  assert.equal(n, 2, 'the order passed and the Halberdiers moved');
  await logsReach([b, c], n);
  await b.waitForFunction((p) => document.querySelector('polygon.stand[data-unit="emp-halberd-2"][data-stand="0"]')?.getAttribute('points') !== p, halberdsBefore, { timeout: 5000 });
  assert.notEqual(await standAt(c, 'emp-halberd-2'), halberdsBefore);
  await shot(b, 'friend-b-sees-a-move');
  await endTurn(a, [b, c]);

  // B's turn: A waits, C watches; B orders the Orc Boyz forward (down the screen).
  await b.waitForFunction(() => document.getElementById('whose-turn')?.dataset.kind === 'mine', null, { timeout: 5000 });
  assert.match(await b.textContent('#whose-turn'), /Your turn: you play Orcs of the Red Fang/);
  assert.equal(await whoseTurn(a), 'waiting');
  assert.equal(await a.locator('#give-order, #next-phase').count(), 0);
  await shot(a, 'friend-a-waits');
  // A's seat cannot act for the Orcs either.
  const fromA = await applyFrom(a, id, await tokensOf(a, id), endOrders);
  assert.equal(fromA.status, 403);
  const boyzBefore = await standAt(a, 'orc-boyz-2');
  const before = await logLength(b);
  const m = await orderAndMove(b, 'orc-boyz-2', -10);
  assert.equal(m, 2, 'the order passed and the Orc Boyz moved');
  await logsReach([a, c], before + m);
  await a.waitForFunction((p) => document.querySelector('polygon.stand[data-unit="orc-boyz-2"][data-stand="0"]')?.getAttribute('points') !== p, boyzBefore, { timeout: 5000 });
  await shot(c, 'friend-c-sees-b-move');
  await endTurn(b, [a, c]);

  // Turn 2, the Empire's again, on every board.
  await a.waitForFunction(() => document.getElementById('whose-turn')?.dataset.kind === 'mine', null, { timeout: 5000 });
  for (const p of [a, b, c]) assert.match(await p.textContent('#turn-line'), /Turn 2 · Empire of Hochland · command/);
  assert.equal(await whoseTurn(b), 'waiting');
  const final = await (await fetch(`${server.url}api/games/${id}`)).json();
  assert.equal(final.turn, 2);
  assert.equal(final.current_player, 0);
  // Every board shows the whole log, each action once.
  const log = (await (await fetch(`${server.url}api/games/${id}/log`)).text()).trim().split('\n').slice(1);
  assert.equal(log.length, final.position);
  for (const p of [a, b, c]) assert.equal(await logLength(p), final.position);
  await shot(a, 'friend-a-turn-2');
  for (const p of [a, b, c]) assert.deepEqual(p.errors, []);
  for (const p of [a, b, c]) await p.context().close();
});
