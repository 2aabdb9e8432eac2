// End to end: `riffle serve --listen 127.0.0.1:0`, the browser table in headless Chromium,
// a whole game of each game (and one of 3 players) played by clicking (the first option each time) until the
// game-over banner; the board, hand, log and card text must render, and the page must be
// sent seat 0's messages only. A screenshot of each game's end goes to RIFFLE_SCREENSHOTS
// (default: a temporary folder).
//
//   node play.mjs [RIFFLE]        (RIFFLE: the riffle binary; default $RIFFLE)
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const riffle = process.argv[2] ?? process.env.RIFFLE;
if (!riffle) throw new Error("give the riffle binary: node play.mjs RIFFLE (or set $RIFFLE)");
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const shots = process.env.RIFFLE_SCREENSHOTS ?? mkdtempSync(path.join(tmpdir(), "riffle-table-"));
mkdirSync(shots, { recursive: true });
const GAMES = [
  { game: "onepiece", seed: 3 },
  { game: "gundam", seed: 2 },
  { game: "summoner-master", seed: 4 },
  { game: "gundam", seed: 5, players: 3, mode: "battle-royal" },
];
const MAX_DECISIONS = 2000; // a game, by the person
const OVERALL_MS = 15 * 60 * 1000;

const overall = setTimeout(() => {
  console.error("browser table: over the overall time limit");
  process.exit(1);
}, OVERALL_MS);

function startServer() {
  const server = spawn(riffle, ["serve", "--listen", "127.0.0.1:0", "--root", root], {
    cwd: root,
    stdio: ["pipe", "pipe", "inherit"],
  });
  const addr = new Promise((resolve, reject) => {
    let out = "";
    server.stdout.on("data", (chunk) => {
      out += chunk;
      const m = out.match(/listening on (\S+)/);
      if (m) resolve(m[1]);
    });
    server.on("exit", (code) => reject(new Error(`riffle serve exited (${code}) before listening`)));
  });
  return { server, addr };
}

async function playOne(page, { game, seed, players = 2, mode = "" }) {
  await page.selectOption("#game", game);
  await page.fill("#players", String(players));
  await page.fill("#mode", mode);
  await page.fill("#seed", String(seed));
  await page.click("#start");
  let last = null;
  let decisions = 0;
  let handSeen = 0;
  const kinds = { single: 0, several: 0, number: 0 };
  for (;;) {
    const handle = await page.waitForFunction(
      (prev) => {
        if (!document.getElementById("banner").hidden) return "over";
        const id = document.getElementById("options").dataset.requestId;
        return id && id !== prev ? id : null;
      },
      last,
      { timeout: 30_000 },
    );
    const now = await handle.jsonValue();
    if (now === "over") break;
    last = now;
    if (++decisions > MAX_DECISIONS) throw new Error(`${game}: over ${MAX_DECISIONS} decisions`);
    handSeen = Math.max(handSeen, await page.locator("#hand button.card").count());
    if (decisions === 12) await page.screenshot({ path: path.join(shots, `${game}${mode && `-${mode}`}-playing.png`) });
    if ((await page.locator("#number").count()) > 0) {
      kinds.number++;
      await page.click("#confirm");
      continue;
    }
    const options = page.locator("#options button.option");
    if ((await page.locator("#confirm").count()) === 0) {
      kinds.single++;
      await options.first().click();
      continue;
    }
    // Several to pick: the fewest allowed, but at least one when one may be picked.
    const [min, max] = await page.evaluate(() => {
      const m = document.getElementById("prompt").textContent.match(/choose (\d+) to (\d+)/);
      return m ? [Number(m[1]), Number(m[2])] : [1, 1];
    });
    const k = Math.max(min, Math.min(1, max));
    kinds.several++;
    for (let i = 0; i < k; i++) await options.nth(i).click();
    await page.click("#confirm");
  }
  const banner = await page.textContent("#banner");
  const logLines = await page.locator("#log li").count();
  const zones = await page.locator("#board .zone").count();
  if (!/Game over/.test(banner)) throw new Error(`${game}: banner says '${banner}'`);
  if (decisions < 3) throw new Error(`${game}: only ${decisions} decisions were clicked`);
  if (logLines < 10) throw new Error(`${game}: the log has ${logLines} lines`);
  if (zones < 2) throw new Error(`${game}: the board shows ${zones} zones`);
  if (handSeen < 1) throw new Error(`${game}: no card was ever shown in the hand`);
  // Some card on the table has printed text, and hovering it shows that text.
  let text = "";
  const cards = page.locator("#board button.card, #hand button.card");
  for (let i = 0, n = await cards.count(); i < n && !text; i++) {
    await cards.nth(i).hover();
    const t = await page.textContent("#card-body .text");
    if (t && t !== "(no text)") text = t;
  }
  if (!text) throw new Error(`${game}: hovering the cards showed no card text`);
  const name = mode ? `${game}-${mode}` : game;
  const shot = path.join(shots, `${name}.png`);
  await page.screenshot({ path: shot, fullPage: true });
  console.log(`browser table: ${name}, ${players} players: ${decisions} decisions (${JSON.stringify(kinds)}), ${logLines} log lines, ${banner.trim()} (${shot})`);
}

const { server, addr } = startServer();
const profile = mkdtempSync(path.join(tmpdir(), "riffle-chromium-"));
let context;
let failed = false;
try {
  const where = await addr;
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  // Every message the page is sent that names a seat must be seat 0's.
  const leaks = [];
  page.on("websocket", (ws) => ws.on("framereceived", ({ payload }) => {
    const msg = JSON.parse(String(payload));
    if (msg.seat !== undefined && msg.seat !== 0) leaks.push(msg.type);
  }));
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`http://${where}/`);
  await page.waitForFunction(() => !document.getElementById("start").disabled);
  for (const g of GAMES) await playOne(page, g);
  if (leaks.length) throw new Error(`the page was sent other seats' messages: ${leaks.slice(0, 5)}`);
  if (errors.length) throw new Error(`the page threw: ${errors.slice(0, 3).join("; ")}`);
} catch (e) {
  failed = true;
  console.error(`browser table: FAILED: ${e.stack ?? e}`);
} finally {
  await context?.close().catch(() => {});
  server.stdin.end(); // the server stops when its standard input closes
  server.kill("SIGTERM");
  rmSync(profile, { recursive: true, force: true });
  clearTimeout(overall);
}
process.exit(failed ? 1 : 0);
