// The board's latency over a whole battle: the pitched battle played through
// the board in Chromium at 1280 x 800 by the acceptance test's script
// (web/tests/whole-battle.mjs: pointer and keyboard only, the Orcs played by
// the built-in opponent), measured by the page's own clock:
//  - click (or the release of a drag) to its result drawn: the next animation
//    frame after the board shows the new position (#replay-label), for
//    orders, moves, ends of phases, shooting and combat;
//  - the opponent's turn drawn: from the Empire's last result drawn to the
//    frame after the opponent's report appears;
//  - bytes received per action (the apply and opponent answers' bodies, from
//    the Resource Timing entries), early in the battle (turns 1-2) and late
//    (turns 7 on), to show they do not grow with the length of the game.
// Usage: REFEREE=build/release/apps/referee/referee node web/bench/board-latency.mjs [seed (default: the test's)]
// Prints medians; run it on a quiet host.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer, launch } from '../tests/support.mjs';
import { playWholeBattle, playwrightDriver, kSeed } from '../tests/whole-battle.mjs';

// Installed in the page once it is drawn: marks each click that acts and the
// frame its result is drawn in.
function recorder() {
  const rec = window.latency = { samples: [], bytes: [], pending: null, lastDrawn: 0, opponent: [] };
  const position = () => Number((document.getElementById('replay-label')?.textContent ?? '').match(/^step (\d+) \(live\)/)?.[1] ?? -1);
  const turn = () => Number((document.getElementById('turn-line')?.textContent ?? '').match(/Turn (\d+)/)?.[1] ?? 0);
  const kindOf = (target) => {
    const b = target.closest?.('button');
    if (!b) return null;
    if (b.id === 'give-order') return 'order';
    if (b.id === 'fight-combat') return 'combat';
    if (b.id === 'make-move') return 'move (re-form)';
    if (b.id === 'confirm-yes') return rec.pending?.kind ?? null;
    if (!b.dataset.action) return null;
    const a = JSON.parse(b.dataset.action);
    if (a.type === 'shoot') return 'shooting';
    if (a.type === 'end_phase') return /combat/.test(document.getElementById('turn-line')?.textContent ?? '') ? 'combat' : 'end of phase';
    return a.type;
  };
  const start = (kind, t0) => { rec.pending = { kind, t0, from: position(), turn: turn() }; };
  document.addEventListener('click', (ev) => { const k = kindOf(ev.target); if (k) start(k, ev.timeStamp); }, true);
  document.addEventListener('pointerup', (ev) => {
    if (ev.target.closest?.('#wm-svg') && ['legal', 'charge'].includes(document.body.dataset.drag)) start(document.body.dataset.drag === 'charge' ? 'charge (drag released)' : 'move (drag released)', ev.timeStamp);
  }, true);
  new MutationObserver(() => {
    const p = rec.pending;
    if (p && position() > p.from) {
      rec.pending = null;
      requestAnimationFrame(() => { const t = performance.now(); rec.lastDrawn = t; rec.samples.push({ kind: p.kind, ms: t - p.t0, turn: p.turn }); });
    }
    const report = document.getElementById('opponent-report');
    if (report && !report.dataset.timed) {
      report.dataset.timed = '1';
      const since = rec.lastDrawn;
      requestAnimationFrame(() => rec.opponent.push(performance.now() - since));
    }
  }).observe(document.documentElement, { subtree: true, childList: true, characterData: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const m = e.name.match(/\/api\/games\/[0-9a-f]+\/(apply|opponent)$/);
      if (m) rec.bytes.push({ what: m[1], bytes: e.encodedBodySize, turn: turn() });
    }
  }).observe({ type: 'resource', buffered: true });
}

const seed = Number(process.argv[2] ?? kSeed);
const server = await startServer();
const browser = await launch();
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[s.length >> 1] : NaN; };
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  await page.goto(server.url);
  await page.waitForSelector('#wm-svg');
  await page.evaluate(recorder);
  const shots = mkdtempSync(path.join(tmpdir(), 'board-latency-'));
  const out = await playWholeBattle({ d: playwrightDriver(page), server: server.url, referee: process.env.REFEREE, shots, prefix: 'bench', seed });
  const rec = await page.evaluate(() => window.latency);
  console.log(`seed ${seed}: ${out.turns} turns, ${out.entries} log entries; ${out.banner.winner} — ${out.banner.reason}`);
  const kinds = [...new Set(rec.samples.map((s) => s.kind))];
  for (const k of kinds) {
    const xs = rec.samples.filter((s) => s.kind === k).map((s) => s.ms);
    console.log(`click → result drawn, ${k}: median ${median(xs).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms over ${xs.length}`);
  }
  console.log(`the opponent's turn drawn (from the Empire's last result drawn): median ${median(rec.opponent).toFixed(0)} ms, max ${Math.max(...rec.opponent).toFixed(0)} ms over ${rec.opponent.length} turns`);
  const applies = rec.bytes.filter((b) => b.what === 'apply');
  const early = applies.filter((b) => b.turn <= 2).map((b) => b.bytes), late = applies.filter((b) => b.turn >= 7).map((b) => b.bytes);
  console.log(`bytes received per action (apply answers): turns 1-2 median ${median(early)} (${early.length} actions), turns 7+ median ${median(late)} (${late.length} actions)`);
  const opp = rec.bytes.filter((b) => b.what === 'opponent');
  if (opp.length) console.log(`bytes per opponent turn: first ${opp[0].bytes}, last ${opp[opp.length - 1].bytes}, median ${median(opp.map((b) => b.bytes))}`);
} finally {
  await browser.close();
  server.stop();
}
