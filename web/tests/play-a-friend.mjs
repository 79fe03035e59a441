// Two players at two browsers and a spectator at a third (three browser
// contexts: their own storage, as three computers), through pointer and
// keyboard events only: A opens the board and uses "Play a friend" (the
// Empire in the fields of Hochland; the Orcs left to the friend, not to the
// built-in opponent) and reads the invitation from the page; B opens it and
// joins; C opens the spectator's link. A and B play a whole Warmaster turn
// each, and every action shows on the other two boards without a reload
// (live updates). C watches with nothing to act with, and the server refuses
// its attempt to act (403); B's seat cannot act for A's side, nor A's for
// B's (403). One script for Chromium and Firefox, through the drivers of
// whole-battle.mjs.
import assert from 'node:assert/strict';
import path from 'node:path';

// What the script reads of a page, through a driver `d` (whole-battle.mjs).
function reader(d) {
  return {
    text: (sel) => d.read((s) => document.querySelector(s)?.textContent ?? null, sel),
    attr: (sel, name) => d.read(([s, n]) => document.querySelector(s)?.getAttribute(n) ?? null, [sel, name]),
    value: (sel) => d.read((s) => document.querySelector(s)?.value ?? null, sel),
    count: (sel) => d.read((s) => document.querySelectorAll(s).length, sel),
    texts: (sel) => d.read((s) => [...document.querySelectorAll(s)].map((e) => e.textContent), sel),
    logLength: () => d.read(() => document.querySelectorAll('#log-list li').length),
    whoseTurn: () => d.read(() => document.getElementById('whose-turn')?.dataset.kind ?? null),
    standAt: (unit) => d.read((u) => document.querySelector(`polygon.stand[data-unit="${u}"][data-stand="0"]`)?.getAttribute('points'), unit),
    hash: () => d.read(() => location.hash),
    // A fetch of /apply from the page's own script, with the seat tokens
    // given (none for a spectator): the status and the answer.
    apply: (id, tokens, action) => d.read(async ([id, tokens, action]) => {
      const headers = { 'Content-Type': 'application/json' };
      if (tokens) headers['X-Referee-Seat'] = tokens;
      const r = await fetch(`/api/games/${id}/apply`, { method: 'POST', headers, body: JSON.stringify({ action }) });
      return { status: r.status, body: await r.json().catch(() => null) };
    }, [id, tokens, action]),
    // The board's own seat tokens, as it sends them.
    tokens: (id) => d.read((id) => JSON.parse(localStorage.getItem(`referee.seats.${id}`) ?? '[]').map((s) => s.token).join(','), id),
  };
}

// Notes on the page when its log panel first shows each length (Date.now(),
// one clock for every context of the browser): how soon a board draws an
// action made at another board, a figure printed, not asserted.
const noteLogTimes = (d) => d.read(() => {
  window.logTimes = {};
  const list = document.getElementById('log-list');
  new MutationObserver(() => { window.logTimes[list.children.length] ??= Date.now(); }).observe(list, { childList: true });
});
const logTimes = (d) => d.read(() => window.logTimes);

// Waits (a few seconds at most: the live updates are pushed) until every
// page's log has `n` lines.
const kLive = 5000;
async function logsReach(people, n) {
  await Promise.all(people.map((p) => p.d.until((k) => document.querySelectorAll('#log-list li').length === k, n, kLive)));
}

// Gives an order to `unit` on the page's board (click, then the button),
// and, when it passes, drags the unit `cm` centimetres up the screen
// (negative: down): the number of log lines added (1 when the order failed).
async function orderAndMove({ d, r }, unit, cm) {
  const stand = `polygon.stand[data-unit="${unit}"][data-stand="1"]`;
  await d.click(stand);
  await d.waitFor('#give-order:not([disabled])');
  const before = await r.logLength();
  await d.click('#give-order');
  await d.until((n) => document.querySelectorAll('#log-list li').length === n + 1, before);
  if (/^Failed/.test(await r.text('#outcome .outcome-head'))) return 1;
  const at = await d.read((s) => { const b = document.querySelector(s).getBoundingClientRect(); return { x: b.x + b.width / 2, y: b.y + b.height / 2 }; }, stand);
  const k = await d.read(() => document.getElementById('wm-svg').getScreenCTM().a);  // px per cm
  await d.move(at.x, at.y);
  await d.down();
  await d.move(at.x, at.y - (cm / 2) * k, 3);
  await d.move(at.x, at.y - cm * k, 3);
  await d.until(() => document.getElementById('wm-svg')?.dataset.dragLegal === 'true');
  await d.up();
  await d.until((n) => document.querySelectorAll('#log-list li').length === n + 2, before);
  return 2;
}

// Presses N (Next phase) until the side's turn is over; the other pages
// follow each action. A question before giving up a move is answered yes.
async function endTurn({ d, r }, others) {
  for (let k = 0; k < 8 && (await r.whoseTurn()) === 'mine'; ++k) {
    const before = await r.logLength();
    await d.focus('#next-phase');
    await d.press('n');
    await d.until((n) => document.querySelectorAll('#log-list li').length > n || document.getElementById('confirm-yes'), before);
    if (await r.count('#confirm-yes')) await d.click('#confirm-yes');
    await d.until(() => !document.body.dataset.passing);
  }
  assert.notEqual(await r.whoseTurn(), 'mine', 'the turn passed to the other side');
  await logsReach(others, await r.logLength());
}

// person(url): opens a page of a browser context of its own on `url`, and
// gives { d (driver), close(), errors }. server: the server's address;
// shots: the screenshots' folder; prefix: their names' start.
export async function playAFriend({ person, server, shots, prefix = 'friend' }) {
  const shot = (p, name) => p.d.shot(path.join(shots, `${prefix}-${name}.png`));
  const view = async (id) => (await fetch(`${server}api/games/${id}`)).json();

  // A: the first visit (the fair battle), then Play a friend from the keyboard, taking the Empire.
  const a = await person(`${server}?seed=1`);
  a.r = reader(a.d);
  await a.d.waitFor('#wm-svg polygon.stand');
  await a.d.click('#howto-dismiss');
  await a.d.focus('#play-friend');
  await a.d.press('Enter');
  await a.d.waitFor('#friend-dialog[open] #friend-side');
  assert.deepEqual(await a.r.texts('#friend-side option'), ['Empire of Hochland', 'Orcs of the Red Fang']);
  assert.equal(await a.r.value('#friend-side'), '0', 'the Empire, the first side, is chosen');
  await a.d.click('#friend-create');
  await a.d.waitFor('#invite-link');
  const invite = await a.r.value('#invite-link');
  const watch = await a.r.value('#watch-link');
  const id = (await a.r.hash()).slice(1);
  assert.match(id, /^[0-9a-f]{32}$/);
  assert.match(invite.slice(-32), /^[0-9a-f]{32}$/);
  assert.equal(invite, `${server}#join/${id}/1/${invite.slice(-32)}`);
  assert.equal(watch, `${server}#watch/${id}`);
  assert.match(await a.r.text('#friend-dialog'), /it gives them Orcs of the Red Fang/);
  await shot(a, 'a-invitation');
  await a.d.click('#friend-close');
  // A new game of the fields of Hochland, nobody's side given to the built-in opponent.
  const made = await view(id);
  assert.equal(made.battle, 'warmaster/pitched-battle');
  assert.deepEqual(made.opponent_sides, []);
  assert.equal(await a.r.whoseTurn(), 'mine');
  assert.match(await a.r.text('#whose-turn'), /Your turn: you play Empire of Hochland/);
  assert.equal(await a.r.attr('#presence-1', 'data-state'), 'invited');
  // Closed too soon, the dialog comes back from the Players panel with the same link.
  await a.d.click('#show-invite-1');
  await a.d.waitFor('#friend-dialog[open] #invite-link');
  assert.equal(await a.r.value('#invite-link'), invite);
  await a.d.click('#friend-close');

  // B: the invitation joins the Orcs; the address keeps no token.
  const b = await person(invite);
  b.r = reader(b.d);
  await b.d.waitFor('#wm-svg polygon.stand');
  await b.d.until((id) => location.hash === `#${id}`, id);
  await b.d.waitFor('#joined');
  assert.match(await b.r.text('#joined'), /You joined the game: you play Orcs of the Red Fang/);
  assert.equal(await b.r.whoseTurn(), 'waiting');
  assert.match(await b.r.text('#whose-turn'), /Waiting for Empire of Hochland's player/);
  assert.equal(await b.r.count('#give-order, #next-phase, #action-list button'), 0, "nothing to act with on the other side's turn");
  // A sees B connected.
  await a.d.until(() => document.getElementById('presence-1')?.dataset.state === 'on', undefined, kLive);
  // The invitation is used up: opened again elsewhere, it says so and offers to watch.
  const late = await person(invite);
  late.r = reader(late.d);
  await late.d.waitFor('#no-game');
  assert.match(await late.r.text('#no-game'), /This invitation cannot be used \(this invitation has been used/);
  assert.equal(await late.r.count('#watch-instead'), 1);
  assert.equal(await late.r.hash(), '', 'the address keeps no token');
  await late.close();

  // C: the spectator's link.
  const c = await person(watch);
  c.r = reader(c.d);
  await c.d.waitFor('#wm-svg polygon.stand');
  assert.equal(await c.r.whoseTurn(), 'watching');
  assert.match(await c.r.text('#whose-turn'), /You are watching this game/);
  assert.equal(await c.r.count('#give-order, #next-phase, #action-list button, #undo:not([disabled])'), 0);
  await a.d.until(() => /1 watching/.test(document.getElementById('spectators')?.textContent ?? ''), undefined, kLive);
  await shot(c, 'c-watching');

  for (const p of [a, b, c]) await noteLogTimes(p.d);

  // The server refuses C (no seat), and B's seat on the Empire's turn.
  const endOrders = { type: 'end_orders' };
  const fromC = await c.r.apply(id, null, endOrders);
  assert.equal(fromC.status, 403);
  assert.equal(fromC.body?.error?.field, 'seat');
  const bTokens = await b.r.tokens(id);
  assert.match(bTokens, /^[0-9a-f]{32}$/);
  const fromB = await b.r.apply(id, bTokens, endOrders);
  assert.equal(fromB.status, 403);
  assert.match(fromB.body?.error?.message ?? '', /Empire of Hochland/);
  assert.equal((await view(id)).position, 0, 'nothing applied');

  // A's turn: an order and a move (seed 1: the order passes), each seen on B's and C's boards.
  const halberds = await b.r.standAt('emp-halberd-2');
  assert.equal(await orderAndMove(a, 'emp-halberd-2', 10), 2, 'the order passed and the Halberdiers moved');
  await logsReach([b, c], 2);
  await b.d.until((p) => document.querySelector('polygon.stand[data-unit="emp-halberd-2"][data-stand="0"]')?.getAttribute('points') !== p, halberds, kLive);
  assert.notEqual(await c.r.standAt('emp-halberd-2'), halberds);
  await shot(b, 'b-sees-a-move');
  await endTurn(a, [b, c]);

  const aLast = await a.r.logLength();  // the Empire's actions: the log's lines up to here

  // B's turn: A waits, C watches; B orders the Orc Boyz forward (down the screen).
  await b.d.until(() => document.getElementById('whose-turn')?.dataset.kind === 'mine', undefined, kLive);
  assert.match(await b.r.text('#whose-turn'), /Your turn: you play Orcs of the Red Fang/);
  assert.equal(await a.r.whoseTurn(), 'waiting');
  assert.equal(await a.r.count('#give-order, #next-phase, #action-list button, #undo:not([disabled])'), 0);
  await shot(a, 'a-waits');
  // A's seat cannot act for the Orcs either.
  assert.equal((await a.r.apply(id, await a.r.tokens(id), endOrders)).status, 403);
  const boyz = await a.r.standAt('orc-boyz-2');
  const before = await b.r.logLength();
  assert.equal(await orderAndMove(b, 'orc-boyz-2', -10), 2, 'the order passed and the Orc Boyz moved');
  await logsReach([a, c], before + 2);
  await a.d.until((p) => document.querySelector('polygon.stand[data-unit="orc-boyz-2"][data-stand="0"]')?.getAttribute('points') !== p, boyz, kLive);
  await shot(c, 'c-sees-b-move');
  await endTurn(b, [a, c]);

  // Turn 2, the Empire's again, on every board.
  await a.d.until(() => document.getElementById('whose-turn')?.dataset.kind === 'mine', undefined, kLive);
  for (const p of [a, b, c]) assert.match(await p.r.text('#turn-line'), /Turn 2 · Empire of Hochland · command/);
  assert.equal(await b.r.whoseTurn(), 'waiting');
  const final = await view(id);
  assert.equal(final.turn, 2);
  assert.equal(final.current_player, 0);
  // Every board shows the whole log, each action once.
  const log = (await (await fetch(`${server}api/games/${id}/log`)).text()).trim().split('\n').slice(1);
  assert.equal(log.length, final.position);
  for (const p of [a, b, c]) assert.equal(await p.r.logLength(), final.position);
  await shot(a, 'a-turn-2');
  // From the acting board's drawing each action to the others' (ms).
  const [ta, tb, tc] = await Promise.all([a, b, c].map((p) => logTimes(p.d)));
  const lags = [];
  for (let n = 1; n <= final.position; ++n) {
    const own = n <= aLast ? ta : tb;
    for (const other of n <= aLast ? [tb, tc] : [ta, tc]) if (own[n] && other[n]) lags.push(other[n] - own[n]);
  }
  lags.sort((x, y) => x - y);
  for (const p of [a, b, c]) assert.deepEqual(p.errors, []);
  for (const p of [a, b, c]) await p.close();
  return { id, actions: final.position, lag: { median: lags[lags.length >> 1], max: lags.at(-1), n: lags.length } };
}
