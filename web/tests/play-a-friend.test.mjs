// "Play a friend" in Chromium: two players at two browser contexts and a
// spectator at a third play a whole Warmaster turn each, every action seen
// live on the other boards (the script: play-a-friend.mjs; Firefox runs it
// too, in firefox.test.mjs).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, screenshots } from './support.mjs';
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
  return { d: playwrightDriver(page), errors, close: () => context.close() };
}

test('Play a friend: A invites B, C watches; a whole turn each, every action seen live on the other boards; C and B refused where the seat is not theirs', { timeout: 120000 }, async () => {
  await playAFriend({ person, server: server.url, shots: screenshots });
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
