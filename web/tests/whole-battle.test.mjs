// The acceptance test of a whole battle at the table: the pitched battle
// played to its end through the board in Chromium, pointer and keyboard only,
// at 1280 x 800 and at phone size (390 x 844), a screenshot of every phase,
// and the banner's result checked against `referee warmaster replay` of the
// log the board saves (web/tests/whole-battle.mjs plays it; Firefox plays it
// in firefox.test.mjs).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startServer, launch, screenshots } from './support.mjs';
import { playWholeBattle, playwrightDriver, assertWholeBattle } from './whole-battle.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

for (const [width, height] of [[1280, 800], [390, 844]]) {
  test(`Chromium, ${width} x ${height}: a whole pitched battle against the built-in opponent, pointer and keyboard only`, { timeout: 600000 }, async () => {
    const page = await browser.newPage({ viewport: { width, height }, bypassCSP: true });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}?seed=1`);
    const t0 = performance.now();
    const out = await playWholeBattle({ d: playwrightDriver(page), server: server.url, referee: process.env.REFEREE, shots: screenshots,
      prefix: `${width}x${height}-chromium`, log: process.env.WHOLE_LOG ? console.log : () => {} })
      .catch(async (e) => { await page.screenshot({ path: path.join(screenshots, `${width}x${height}-chromium-failed.png`) }); throw e; });
    const s = (performance.now() - t0) / 1000;
    console.log(`Chromium ${width} x ${height}: ${out.turns} turns, ${out.entries} log entries in ${s.toFixed(1)} s; ${JSON.stringify(out.seen)}; ${out.banner.winner} — ${out.banner.reason}`);
    assertWholeBattle(out);
    assert.deepEqual(errors, []);
    await page.close();
  });
}
