// "Play a friend" in Chromium: two players at two browser contexts and a
// spectator at a third play a whole Warmaster turn each, every action seen
// live on the other boards (the script: play-a-friend.mjs; Firefox runs it
// too, in firefox.test.mjs).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startServer, launch, screenshots, api } from './support.mjs';
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
