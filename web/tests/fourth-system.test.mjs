// The tests' fourth system, tic-tac-toe, registered with one line
// (tests/support/with_tictactoe.hpp) in a test build of referee: its battle
// is in the board's menu, and the shell, which names no system, imports its
// board module (tests/fixtures/tictactoe/board.js, served as tictactoe.js)
// from GET /api/systems and plays it. REFEREE_TICTACTOE is that build
// (scripts/test-web.sh sets it beside REFEREE).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { startServer, launch, shot } from './support.mjs';

const bin = process.env.REFEREE_TICTACTOE;
let server, browser;
before(async () => {
  if (!bin || !existsSync(bin)) throw new Error(`set REFEREE_TICTACTOE to the test build of referee (got ${bin})`);
  server = await startServer([], bin);
  browser = await launch();
});
after(async () => { await browser?.close(); server?.stop(); });

test('tic-tac-toe is in the menu, its board loads from /api/systems, and it plays', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${server.url}?seed=1`);
  // The first battle (the fair Warmaster battle), as before: the real boards still load.
  await page.waitForSelector('#wm-svg polygon.stand');
  const options = await page.locator('#battle option').evaluateAll((os) => os.map((o) => [o.value, o.textContent]));
  assert.deepEqual(options.at(-1), ['tictactoe/empty', 'Tic-tac-toe: an empty board']);

  const before = await page.evaluate(() => location.hash);
  await page.selectOption('#battle', 'tictactoe/empty');
  await page.waitForFunction((h) => location.hash !== h, before);
  await page.waitForSelector('#ttt-board');
  assert.match(await page.textContent('#status'), /tictactoe/);
  assert.equal(await page.locator('#ttt-board button.ttt-cell').count(), 9);

  // The shell lists the legal action (the toss) and applies it; seed 1 rolls 2: X starts.
  await page.click('#action-list button[data-action=\'{"type":"toss"}\']');
  await page.waitForSelector('#ttt-board button.ttt-cell[data-cell="4"]:not([disabled])');
  await page.click('#ttt-board button.ttt-cell[data-cell="4"]');
  await page.waitForFunction(() => document.querySelector('#ttt-board button[data-cell="4"]')?.textContent === 'X');
  assert.match(await page.textContent('#turn-line'), /Turn 1 · O · play/);
  await shot(page, 'fourth-system-tictactoe');
  assert.deepEqual(errors, []);
  await page.close();
});
