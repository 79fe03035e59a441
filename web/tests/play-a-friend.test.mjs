// "Play a friend" in Chromium: two players at two browser contexts and a
// spectator at a third play a whole Warmaster turn each, every action seen
// live on the other boards (the script: play-a-friend.mjs; Firefox runs it
// too, in firefox.test.mjs).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, launch, screenshots, api, seatsOf } from './support.mjs';
import { playAFriend } from './play-a-friend.mjs';
import { playwrightDriver } from './whole-battle.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

// A page in a context of its own (a browser of its own: its own storage).
async function person(url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  return { d: playwrightDriver(page), page, context, errors, close: () => context.close() };
}

test('Play a friend: A invites B, C watches; a whole turn each, every action seen live on the other boards; C and B refused where the seat is not theirs', { timeout: 120000 }, async () => {
  const out = await playAFriend({ person, server: server.url, shots: screenshots });
  console.log(`Chromium: ${out.actions} actions; another board drew each ${out.lag.median} ms (median; at most ${out.lag.max} ms, ${out.lag.n} draws) after the acting board`);
});

test('a link to a game this server does not have says so, and opens no other battle in its place', async () => {
  const { d, errors, close } = await person(`${server.url}#${'0123456789abcdef'.repeat(2)}`);
  await d.waitFor('#no-game');
  const text = await d.read(() => document.getElementById('no-game').textContent);
  assert.match(text, /^This game is not on this server \(no game 0123456789abcdef0123456789abcdef here/);
  assert.equal(await d.read(() => document.querySelectorAll('#board svg').length), 0, 'no battle opened instead');
  assert.equal(await d.read(() => location.hash), `#${'0123456789abcdef'.repeat(2)}`);
  assert.deepEqual(errors, []);
  await close();
});

// A TCP relay to the server: a board opened through it can be cut off
// (every connection dropped, new ones refused) and let back in.
async function relay(target) {
  const { port: to } = new URL(target);
  const sockets = new Set();
  let open = true;
  const server = net.createServer((client) => {
    if (!open) { client.destroy(); return; }
    const upstream = net.connect(Number(to), '127.0.0.1');
    for (const s of [client, upstream]) { sockets.add(s); s.on('close', () => sockets.delete(s)); s.on('error', () => {}); }
    client.pipe(upstream).pipe(client);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    cut() { open = false; for (const s of sockets) s.destroy(); },
    restore() { open = true; },
    close() { open = false; for (const s of sockets) s.destroy(); server.close(); },
  };
}

test('a board cut off from the server reconnects by itself and catches up with what it missed (Last-Event-ID)', { timeout: 60000 }, async () => {
  // A game made through the API (this test holds its seats), watched by a
  // board that reaches the server through a relay, cut while two actions are played.
  const game = await api(server, 'POST', 'games', { battle: 'warmaster/pitched-battle', seed: 1 });
  const line = await relay(server.url);
  const b = await person(`${line.url}#watch/${game.id}`);
  await b.d.until(() => document.getElementById('live-state')?.dataset.state === 'on');
  const resumed = [];
  b.page.on('request', (r) => { if (r.url().endsWith('/events')) resumed.push(r.headers()['last-event-id'] ?? null); });
  line.cut();
  await b.d.until(() => document.getElementById('live-state')?.dataset.state === 'reconnecting', undefined, 5000);
  await api(server, 'POST', `games/${game.id}/apply`, { action: { type: 'end_orders' } });
  await api(server, 'POST', `games/${game.id}/apply`, { action: { type: 'end_phase' } });
  line.restore();
  // Back within the backoff's 5 s at most, from the version it had seen (0, the game's creation).
  await b.d.until(() => document.getElementById('live-state')?.dataset.state === 'on', undefined, 10000);
  await b.d.until(() => document.querySelectorAll('#log-list li').length === 2, undefined, 5000);
  assert.ok(resumed.includes('0'), `Last-Event-ID sent: ${JSON.stringify(resumed)}`);
  const view = await api(server, 'GET', `games/${game.id}`);
  assert.equal(view.position, 2);
  assert.equal(await b.d.read(() => document.getElementById('turn-line').textContent), `Turn ${view.turn} · Empire of Hochland · ${view.phase}`);
  assert.deepEqual(b.errors, []);
  await b.close();
  line.close();
});

test('the server killed (-9) mid-game and restarted on its data: both players\' boards reconnect by themselves and the game goes on', { timeout: 90000 }, async () => {
  const data = mkdtempSync(path.join(os.tmpdir(), 'referee-web-restart-'));
  let own = await startServer([], process.env.REFEREE, { data });
  const port = new URL(own.url).port;
  try {
    // A friend game made through the API: A holds the Empire; B joins the Orcs by the invitation.
    const game = await api(own, 'POST', 'games', { battle: 'warmaster/pitched-battle', seed: 1, seats: [0], opponent_sides: [] });
    const joined = await (await fetch(`${own.url}api/games/${game.id}/join`, { method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Referee-Invite': game.invitations[0].token }, body: '{}' })).json();
    const seat = (tokens) => async (page) => page.addInitScript(([id, t]) => localStorage.setItem(`referee.seats.${id}`, JSON.stringify(t)), [game.id, tokens]);
    const open = async (tokens) => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await seat(tokens)(page);
      await page.goto(`${own.url}#${game.id}`);
      await page.waitForSelector('#wm-svg polygon.stand');
      return { d: playwrightDriver(page), page, context, errors };
    };
    const a = await open(seatsOf(game.id));
    const b = await open(joined.seat_tokens);
    const live = (p, state, timeout = 10000) => p.d.until((s) => document.getElementById('live-state')?.dataset.state === s, state, timeout);
    for (const p of [a, b]) await live(p, 'on');
    // A orders the Halberdiers (acknowledged), and B sees it.
    await a.page.click('polygon.stand[data-unit="emp-halberd-2"][data-stand="1"]');
    await a.page.click('#give-order');
    await a.d.until(() => document.querySelectorAll('#log-list li').length === 1);
    await b.d.until(() => document.querySelectorAll('#log-list li').length === 1, undefined, 5000);
    // The server killed; both boards say they are reconnecting; a server on the same port and data.
    own.proc.kill('SIGKILL');
    for (const p of [a, b]) await live(p, 'reconnecting');
    own = await startServer([], process.env.REFEREE, { port, data });
    for (const p of [a, b]) await live(p, 'on');
    // The order survived, and the game goes on: A ends the orders, B sees it.
    assert.equal((await api(own, 'GET', `games/${game.id}`)).position, 1);
    await a.page.focus('#next-phase');
    await a.page.keyboard.press('n');
    await a.d.until(() => document.querySelectorAll('#log-list li').length === 2 || document.getElementById('confirm-yes'));
    if (await a.page.locator('#confirm-yes').count()) await a.page.click('#confirm-yes');
    await a.d.until(() => document.querySelectorAll('#log-list li').length === 2);
    await b.d.until(() => document.querySelectorAll('#log-list li').length === 2, undefined, 5000);
    const view = await api(own, 'GET', `games/${game.id}`);
    assert.equal(view.position, 2);
    assert.equal(await b.d.read(() => document.getElementById('turn-line').textContent), `Turn 1 · Empire of Hochland · ${view.phase}`);
    for (const p of [a, b]) assert.deepEqual(p.errors, []);
    for (const p of [a, b]) await p.context.close();
  } finally {
    own.stop();
    rmSync(data, { recursive: true, force: true });
  }
});

test('an action refused because the game had moved on (a board that missed an update) says so and catches up', { timeout: 60000 }, async () => {
  const game = await api(server, 'POST', 'games', { battle: 'warmaster/pitched-battle', seed: 1 });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // This board holds the seats but hears no live update (its stream refused).
  await page.route('**/events', (route) => route.abort());
  await page.addInitScript(([id, t]) => localStorage.setItem(`referee.seats.${id}`, JSON.stringify(t)), [game.id, seatsOf(game.id)]);
  await page.goto(`${server.url}#${game.id}`);
  await page.waitForSelector('#next-phase');
  // The orders are ended elsewhere (the same player's other browser, here the API).
  await api(server, 'POST', `games/${game.id}/apply`, { action: { type: 'end_orders' } });
  // This board, still at the orders, ends them too: refused, and it catches up.
  await page.click('#next-phase');
  await page.waitForSelector('#moved-on');
  assert.match(await page.textContent('#moved-on'), /The game had moved on before it reached the server/);
  const view = await api(server, 'GET', `games/${game.id}`);
  assert.equal(await page.textContent('#turn-line'), `Turn 1 · Empire of Hochland · ${view.phase}`);
  assert.equal(await page.locator('#log-list li').count(), view.position);
  assert.deepEqual(errors, []);
  await context.close();
});
