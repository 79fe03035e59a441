// The first page load of the default battle from a cold server (issue target:
// 300 ms), measured as the browser test does: from the start of navigation
// to the board drawn (document.body.dataset.readyMs, by the page's own clock).
// Each run starts a new `referee serve` and a new browser context, so that
// nothing is cached on either side. Usage:
//   REFEREE=build/release/apps/referee/referee node web/bench/first-load.mjs [runs]
// Prints every run and the median; run it on a quiet host.
import { startServer, launch } from '../tests/support.mjs';

const runs = Number(process.argv[2] ?? 15);
const browser = await launch();
const times = [];
try {
  for (let i = 0; i < runs; ++i) {
    const server = await startServer();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const wall = performance.now();
    await page.goto(server.url);
    await page.waitForSelector('#wm-svg polygon.stand');
    const ready = Number(await page.evaluate(() => document.body.dataset.readyMs));
    const outside = performance.now() - wall;
    times.push(ready);
    console.log(`run ${i + 1}: ${ready.toFixed(0)} ms by the page's clock, ${outside.toFixed(0)} ms seen from outside`);
    await context.close();
    server.stop();
  }
} finally {
  await browser.close();
}
times.sort((a, b) => a - b);
const median = times[times.length >> 1];
console.log(`first load of the default battle from a cold server: median ${median.toFixed(0)} ms, ` +
            `min ${times[0].toFixed(0)} ms, max ${times[times.length - 1].toFixed(0)} ms over ${runs} runs`);
