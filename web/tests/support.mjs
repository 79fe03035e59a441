// What every browser test needs: `referee serve` on a free loopback port, and
// Debian's browsers (never a downloaded one): chromium driven by
// playwright-core, firefox-esr driven by puppeteer-core over WebDriver BiDi.
// REFEREE is the referee binary to test (scripts/test-web.sh sets it);
// SCREENSHOTS is the folder the screenshots go to.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';

export const screenshots = process.env.SCREENSHOTS ?? path.resolve('screenshots');
mkdirSync(screenshots, { recursive: true });

// `referee serve` on a free port (or `port`), keeping its games in a fresh
// folder under the system's temporary one (or `data`, kept), which goes when
// the server is stopped: no test writes to the user's state directory.
export async function startServer(args = [], bin = process.env.REFEREE, { port = 0, data = null } = {}) {
  if (!bin) throw new Error('set REFEREE to the referee binary');
  const dir = data ?? mkdtempSync(path.join(os.tmpdir(), 'referee-web-test-'));
  // Every test's players share one address here, and some tests make dozens
  // of games in a row (looking for a seed): the per-address bucket of new
  // games (docs/api.md, "Safety") is raised for them.
  const proc = spawn(bin, ['serve', '--port', String(port), '--data', dir, '--new-games-per-client', '100000', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const removeDir = () => { if (!data) rmSync(dir, { recursive: true, force: true }); };
  proc.on('exit', removeDir);
  let out = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`referee serve did not start: ${out}`)), 15000);
    const read = (chunk) => {
      out += chunk;
      const m = out.match(/http:\/\/[0-9.]+:\d+\//);
      if (m) { clearTimeout(timer); resolve(m[0]); }
    };
    proc.stdout.on('data', read);
    proc.stderr.on('data', read);
    proc.on('exit', (code) => reject(new Error(`referee serve exited (${code}): ${out}`)));
  });
  return { url, data: dir, stop: () => proc.kill('SIGTERM'), proc };
}

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
           '--disable-component-update', '--disable-sync'],
  });
}

// playwright-core supports only its own patched Firefox (a download; its
// stock-Firefox BiDi channel is private and experimental); puppeteer-core
// drives a stock Firefox over WebDriver BiDi as a documented feature and,
// given executablePath, never fetches a browser.
export async function launchFirefox() {
  return puppeteer.launch({
    browser: 'firefox',
    executablePath: process.env.FIREFOX ?? '/usr/bin/firefox-esr',
    headless: true,
  });
}

// The seat tokens the server gave the tests (the `seat_tokens` of an
// answer: a game made or imported takes every human side, a join the side
// joined), per game id; sent with every request about that game, as the
// board sends its own (X-Referee-Seat).
const seats = new Map();
export const seatsOf = (id) => seats.get(id) ?? [];
export function seatHeaders(id) {
  const tokens = seatsOf(id).map((s) => s.token);
  return tokens.length ? { 'X-Referee-Seat': tokens.join(',') } : {};
}
function keepSeats(id, tokens) {
  if (!id || !Array.isArray(tokens)) return;
  seats.set(id, [...seatsOf(id).filter((s) => !tokens.some((t) => t.side === s.side)), ...tokens]);
}

// A request to the server's API (docs/api.md) that must succeed: its JSON
// answer, or an error naming the path, the status and the answer.
export async function api(server, method, pathname, body) {
  const game = /^games\/([0-9a-f]{32})/.exec(pathname)?.[1];
  const init = { method, headers: game ? seatHeaders(game) : {} };
  if (body !== undefined) { init.headers['Content-Type'] = 'application/json'; init.body = JSON.stringify(body); }
  const r = await fetch(`${server.url}api/${pathname}`, init);
  const text = await r.text();
  if (!r.ok) throw new Error(`${pathname}: ${r.status} ${text}`);
  const answer = JSON.parse(text);
  keepSeats(answer?.id ?? answer?.game?.id ?? game, answer?.seat_tokens);
  return answer;
}

// Puts the seat tokens of `game` (made through api()) in the browser's
// storage before the page loads, as the board keeps those it is given, so
// that the board opened on the game's address plays its sides.
export async function giveSeats(page, game) {
  await page.addInitScript(([id, tokens]) => {
    try { if (tokens.length) localStorage.setItem(`referee.seats.${id}`, JSON.stringify(tokens)); } catch { /* no storage */ }
  }, [game.id, seatsOf(game.id)]);
}

// The same for a page about to open `url`, when it names a game (#<id>).
export async function giveSeatsFor(page, url) {
  const id = /#([0-9a-f]{32})$/.exec(url)?.[1];
  if (id) await giveSeats(page, { id });
}

// A chromium page on the board of a game made through the API (the board
// resumes the id in the address, with the seats the API gave), its page
// errors kept in page.errors.
export async function openBoard(browser, server, game, { selector = '#board svg', width = 1280, height = 800 } = {}) {
  const page = await browser.newPage({ viewport: { width, height }, bypassCSP: true });
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  await giveSeats(page, game);
  await page.goto(`${server.url}#${game.id}`);
  await page.waitForSelector(selector);
  await page.waitForFunction((id) => location.hash === `#${id}`, game.id);
  return page;
}

// Resolves once the page has drawn twice: what a change of size or a
// reload lays out is on the screen, without guessing a time to wait.
export async function settled(page) {
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

// Resolves when the board's query `name` has been answered, as a promise
// made before what sends it (a navigation, a click).
export function queryAnswered(page, name) {
  return page.waitForResponse((r) => r.url().endsWith('/query') && (r.request().postData() ?? '').includes(`"name":"${name}"`));
}

export async function shot(page, name) {
  await page.screenshot({ path: path.join(screenshots, `${name}.png`) });
}

// The screen point of a table point (x, y) on the board's SVG `svgId`, whose
// table is `height` deep (the SVG's y runs down from the far edge).
export function screenPoint(page, svgId, height, x, y) {
  return page.evaluate(([id, h, x, y]) => {
    const s = document.getElementById(id);
    const p = s.createSVGPoint();
    p.x = x; p.y = h - y;
    const q = p.matrixTransform(s.getScreenCTM());
    return { x: q.x, y: q.y };
  }, [svgId, height, x, y]);
}

// Blightmeer's town: the captain selected and his climb onto the inn drawn,
// up to the check shown in #bm-report (not resolved).
export async function drawCaptainClimb(page) {
  await page.click('#bm-svg circle[data-unit="captain"]');
  await page.waitForSelector('#bm-svg g.reach rect');
  await page.click('button[data-step="climb"]');
  const to = await screenPoint(page, 'bm-svg', 36, 4.5, 7);
  await page.mouse.click(to.x, to.y);
  await page.waitForSelector('#bm-report');
}
