// Fair play at the board (docs/api.md, "The dice"): a game a newcomer
// opens has secret dice, the board says so and shows the commitment, and
// nothing the page receives holds the seed; the seed is an advanced option,
// empty by default, and a fixed one is told to every viewer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, shot } from './support.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

test('a new game has secret dice: the board shows the commitment, the page never receives the seed', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const bodies = [];
  page.on('response', async (r) => { if (r.url().includes('/api/games')) bodies.push(await r.text().catch(() => '')); });
  await page.goto(`${server.url}#warmaster/default`);
  await page.waitForSelector('#wm-svg polygon.stand');
  assert.equal(await page.inputValue('#seed'), '', 'the seed field is empty by default');
  assert.equal(await page.isVisible('#seed'), false, 'the seed is an advanced option, folded away');
  const line = await page.textContent('#dice-line');
  assert.match(line, /secret until the game ends \(commitment [0-9a-f]{12}…\)/);
  const id = await page.evaluate(() => location.hash.slice(1));
  const view = await (await fetch(`${server.url}api/games/${id}`)).json();
  assert.equal(view.dice.seed, null);
  assert.equal(view.dice.fixed, false);
  assert.match(view.dice.commitment, /^[0-9a-f]{64}$/);
  // The log withholds the seed; nothing the page read carries one.
  const log = await (await fetch(`${server.url}api/games/${id}/log`)).text();
  assert.match(log.split('\n')[0], /"seed":null/);
  for (const b of bodies) assert.doesNotMatch(b, /"seed":\s*[0-9]/, b.slice(0, 200));
  await shot(page, 'fair-play-secret-dice');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a fixed seed typed under Advanced is told to every viewer', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  await page.goto(`${server.url}#warmaster/default`);
  await page.waitForSelector('#wm-svg polygon.stand');
  await page.click('#advanced summary');
  await page.fill('#seed', '42');
  const before = await page.evaluate(() => location.hash);
  await page.click('#new-game');
  await page.waitForFunction((h) => location.hash !== h, before);
  await page.waitForSelector('#dice-line');
  assert.match(await page.textContent('#dice-line'), /fixed seed 42: anyone can foresee the rolls/);
  await page.close();
});
