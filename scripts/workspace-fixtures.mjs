// Writes tests/data/workspace/: what a build of scalewise leaves in the browser's storage
// after a user has typed on every page (`<name>-storage.json`, every localStorage key and its
// text) and the workspace file its "Export workspace" button saves (`<name>-export.json`).
// The tests open these with the current build and check that every input comes back.
//
// Run against an older build to keep a fixture of its format:
//   node scripts/workspace-fixtures.mjs DIST_DIR NAME
// The committed `v1-*` fixtures were written by the build of commit b5045d6 (workspace
// format 1: the whole workspace under one localStorage key).
import { createServer } from "node:http";
import { readFile, writeFile, mkdir } from "node:fs/promises";
import { join, extname, normalize } from "node:path";
import { chromium } from "playwright-core";

const [dist, name] = process.argv.slice(2);
if (!dist || !name) throw new Error("usage: node scripts/workspace-fixtures.mjs DIST_DIR NAME");
const out = new URL("../tests/data/workspace/", import.meta.url).pathname;
await mkdir(out, { recursive: true });

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm", ".css": "text/css" };
const server = createServer(async (req, res) => {
  let rel = normalize(new URL(req.url, "http://x").pathname).replace(/^\/+/, "") || "index.html";
  try {
    const body = await readFile(join(dist, rel));
    res.writeHead(200, { "content-type": TYPES[extname(rel)] ?? "application/octet-stream" });
    res.end(body);
  } catch { res.writeHead(404); res.end(); }
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const base = `http://127.0.0.1:${server.address().port}/`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
});
const context = await browser.newContext({ acceptDownloads: true });
const page = await context.newPage();
const open = async (entry) => { await page.goto(base + entry); await page.waitForSelector("main.page h1"); };
const extrap = await readFile(new URL("../tests/data/extrap/app.txt", import.meta.url), "utf8");

// What a user types: a distinctive value in at least one field of every page, a table with
// several lines, an Extra-P text, a catalog edit.
await open("speedup.html");
await page.fill("#points", "n\ttime (s)\n1\t100\n2\t52.4\n4\t28.9\n8\t17.1\n16\t11.8");
await page.fill("#target", "555, 1024");
await page.fill("#extrap-text", extrap);
await open("multigrid.html");
await page.fill("#np", "48");
await page.fill("#cal1_seq", "work (MB)\ttime (s)\n2048\t1500\n1024\t741");
await open("regions.html");
await page.fill("#alpha", "0.07");
await page.fill("#sizes", "1000, 4000, 16000");
await open("comm.html");
await page.fill("#procs", "24");
await open("simulate.html");
await page.fill("#seed", "4242");
await page.fill("#numprocs", "2, 4, 8");
await open("index.html#/clusters");
await page.fill("#cluster-0-price", "3.25");
await page.waitForTimeout(500);

const storage = await page.evaluate(() => Object.fromEntries(Object.keys(localStorage).sort().map((k) => [k, localStorage.getItem(k)])));
await writeFile(join(out, `${name}-storage.json`), JSON.stringify(storage, null, 1) + "\n");
const [download] = await Promise.all([page.waitForEvent("download"), page.click("#export-workspace")]);
await download.saveAs(join(out, `${name}-export.json`));
console.log(`wrote ${name}-storage.json (${Object.keys(storage).length} keys) and ${name}-export.json`);
await browser.close();
server.close();
