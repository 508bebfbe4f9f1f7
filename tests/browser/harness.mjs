// Shared set-up for the browser tests: serves dist/ (the release build) on 127.0.0.1 under
// a sub-path, as a documentation site would, and launches Debian's Chromium headless
// through playwright-core (which never downloads a browser of its own).
import { createServer } from "node:http";
import { readFile, readdir, stat, mkdir } from "node:fs/promises";
import { join, extname, normalize } from "node:path";
import { chromium } from "playwright-core";
import { existsSync } from "node:fs";
import { execFileSync } from "node:child_process";

export const SUBPATH = "/docs/tools/scalewise/";
export const DIST = new URL("../../dist/", import.meta.url).pathname;
export const OUT = new URL("../../test-output/", import.meta.url).pathname;

const TYPES = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".wasm": "application/wasm",
  ".css": "text/css", ".json": "application/json", ".png": "image/png", ".svg": "image/svg+xml",
  ".webmanifest": "application/manifest+json",
};

/**
 * Starts a static server; resolves to { base, close, served, refused, setDown, setDist } where
 * served lists the paths requested and refused those asked while down. `extra` maps paths
 * under the sub-path to [content type, body] served besides dist/ (a test's host page), and
 * may change while the server runs. setDown(true) makes the server drop every request, as a
 * machine with no network would see it. setDist(dir) serves another build from then on (an
 * upgrade).
 */
export async function serveDist({ extra = {} } = {}) {
  await stat(join(DIST, "index.html")); // fails clearly when the build is missing
  const served = [], refused = [];
  let down = false, dist = DIST;
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://x");
    if (down) { refused.push(url.pathname); req.socket.destroy(); return; }
    served.push(url.pathname);
    const own = extra[url.pathname.slice(SUBPATH.length)];
    if (url.pathname.startsWith(SUBPATH) && own) { res.writeHead(200, { "content-type": own[0] }); res.end(own[1]); return; }
    if (!url.pathname.startsWith(SUBPATH)) { res.writeHead(404); res.end("not under the sub-path"); return; }
    let rel = normalize(url.pathname.slice(SUBPATH.length)).replace(/^(\.\.[/\\])+/, "");
    if (rel === "" || rel === ".") rel = "index.html";
    try {
      const body = await readFile(join(dist, rel));
      res.writeHead(200, { "content-type": TYPES[extname(rel)] ?? "application/octet-stream" });
      res.end(body);
    } catch { res.writeHead(404); res.end("not found"); }
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address();
  return {
    base: `http://127.0.0.1:${port}${SUBPATH}`, origin: `http://127.0.0.1:${port}`, served, refused,
    setDown: (d) => { down = d; if (d) server.closeAllConnections(); },
    setDist: (dir) => { dist = dir; },
    close: () => new Promise((r) => { server.close(r); server.closeAllConnections(); }),
  };
}

export async function launch() {
  await mkdir(OUT, { recursive: true });
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
}

/**
 * A fresh page (fresh storage) that records console errors and requests leaving the origin.
 * Options: `width` (1280 by default; 375 is a phone) and `colorScheme` ("light" or "dark",
 * what prefers-color-scheme reports; light by default).
 */
export async function freshPage(browser, origin, { width = 1280, colorScheme = "light" } = {}) {
  // A narrow desktop window rather than mobile emulation: a phone's browser may zoom out to
  // fit a page wider than the screen, which would hide the sideways scroll the tests look for.
  const context = await browser.newContext({
    viewport: { width, height: width < 700 ? 812 : 900 }, acceptDownloads: true, colorScheme,
  });
  const page = await context.newPage();
  const problems = { consoleErrors: [], foreignRequests: [] };
  page.on("console", (m) => { if (m.type() === "error") problems.consoleErrors.push(m.text()); });
  page.on("pageerror", (e) => problems.consoleErrors.push(String(e)));
  page.on("request", (r) => {
    const u = r.url();
    if (!u.startsWith(origin + "/") && !u.startsWith("data:") && !u.startsWith("blob:")) problems.foreignRequests.push(u);
  });
  return { context, page, problems };
}

/** A fresh page (see `freshPage`) at `entry` of the served site ("speedup.html"), rendered. */
export async function openEntry(browser, server, entry) {
  const p = await freshPage(browser, server.origin);
  await p.page.goto(`${server.base}${entry}`);
  await ready(p.page);
  return p;
}

/**
 * The calculators, as the site's navigation lists them (made from the table of calculators,
 * `model::calculators`): [{ key, title, file }], where `file` is the key's HTML entry. Checks
 * that dist/ holds exactly these entries besides index.html, so a new calculator's page is in
 * every test that loops over the pages without being named in any.
 */
export async function calculators(browser, server) {
  const { context, page } = await openEntry(browser, server, "index.html");
  const links = await page.locator("nav[aria-label=calculators] a").evaluateAll((as) => as.map((a) => [a.getAttribute("href"), a.textContent]));
  await context.close();
  const out = links
    .map(([href, title]) => [/#\/([a-z]+)$/.exec(href ?? "")?.[1], title])
    .filter(([key]) => key && key !== "clusters")
    .map(([key, title]) => ({ key, title, file: `${key}.html` }));
  const entries = (await readdir(DIST)).filter((f) => f.endsWith(".html") && f !== "index.html").sort();
  if (JSON.stringify(entries) !== JSON.stringify(out.map((c) => c.file).sort())) {
    throw new Error(`the navigation lists ${out.map((c) => c.file)}, dist/ holds ${entries}`);
  }
  return out;
}

/** Waits until the app has rendered (wasm loaded and the first page drawn). */
export async function ready(page) {
  await page.waitForSelector("main.page h1", { timeout: 20000 });
}

export async function shot(page, name) {
  await page.screenshot({ path: join(OUT, `${name}.png`), fullPage: true });
}

/**
 * The native command's JSON answer to `args` and, on its standard input, `input`
 * (`target/debug/scalewise`, which `cargo test`
 * builds; built here when missing, so a test that compares with it never skips). A failure of
 * the build or of the command is a failure of the test, with the command's own message.
 */
export function command(args, input) {
  const cli = new URL("../../target/debug/scalewise", import.meta.url).pathname;
  if (!existsSync(cli)) execFileSync("cargo", ["build", "--locked", "--quiet", "--bin", "scalewise"], { stdio: "inherit" });
  let out;
  try {
    out = execFileSync(cli, args, { encoding: "utf8", maxBuffer: 1 << 30, input: input ?? "", stdio: ["pipe", "pipe", "pipe"] });
  } catch (e) {
    throw new Error(`scalewise ${args.join(" ")} failed (${e.status ?? e.code}): ${String(e.stderr ?? e.message).trim()}`);
  }
  return JSON.parse(out);
}

/** The path of a cargo example's binary, built when missing (`cargo test` builds them). */
export function example(name) {
  const bin = new URL(`../../target/debug/examples/${name}`, import.meta.url).pathname;
  if (!existsSync(bin)) execFileSync("cargo", ["build", "--locked", "--quiet", "--example", name], { stdio: "inherit" });
  return bin;
}
