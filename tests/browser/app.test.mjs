// The foundation in a real browser: loads clean, every route renders, nothing leaves the
// origin, autosave survives a reload, share links restore state, embed mode hides the
// chrome, import/export work, and the page stays within its size budget.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { readFile } from "node:fs/promises";
import { serveDist, launch, freshPage, ready, shot, calculators, SUBPATH } from "./harness.mjs";

// The routes of index.html, then every calculator's (from the site's navigation), each with
// the heading its page shows; and every HTML entry.
let server, browser, ROUTES, ENTRIES;
before(async () => {
  server = await serveDist();
  browser = await launch();
  const calcs = await calculators(browser, server);
  ROUTES = [["", "Predict parallel performance"], ["clusters", "Clusters"], ...calcs.map((c) => [c.key, c.title])];
  ENTRIES = ["", ...calcs.map((c) => c.file)];
});
after(async () => { await browser?.close(); await server?.close(); });

test("every route renders with no console error and no request outside the origin", async () => {
  const { context, page, problems } = await freshPage(browser, server.origin);
  for (const [route, heading] of ROUTES) {
    await page.goto(`${server.base}#/${route}`);
    await ready(page);
    const h1 = await page.locator("main.page h1").first().textContent();
    assert.ok(h1.includes(heading), `route #/${route}: heading ${JSON.stringify(h1)} lacks ${heading}`);
    assert.ok(await page.locator("header.site-header nav").isVisible(), `#/${route}: navigation shown`);
    await shot(page, `route-${route || "home"}`);
  }
  await page.goto(`${server.base}#/no-such-page`);
  await ready(page);
  assert.match(await page.locator("main.page h1").textContent(), /not found/i);
  assert.deepEqual(problems.consoleErrors, [], "console errors");
  assert.deepEqual(problems.foreignRequests, [], "requests outside the page's origin");
  await context.close();
});

test("navigation links move between pages and mark the current one", async () => {
  const { context, page } = await freshPage(browser, server.origin);
  await page.goto(server.base);
  await ready(page);
  await page.click("nav >> text=Clusters");
  await page.waitForSelector("h1:has-text('Clusters')");
  assert.ok(page.url().endsWith("#/clusters"), page.url());
  assert.equal(await page.locator("nav li.active").textContent(), "Clusters");
  await context.close();
});

test("clusters page: presets from the seeds, edits autosave and survive a reload", async () => {
  const { context, page, problems } = await freshPage(browser, server.origin);
  await page.goto(`${server.base}#/clusters`);
  await ready(page);
  const text = await page.locator("main").textContent();
  for (const name of ["White Rose Grid Node 2", "White Rose Grid Node 3", "Perseus", "bwGRiD Mannheim",
    "bwGRiD Heidelberg", "bwGRiD 2 Mannheim (planned)", "SHARCNET narwhal", "Grid'5000 Orsay",
    "Grid'5000 Grenoble", "Grid'5000 Toulouse", "Grid'5000 Sophia-Antipolis"]) {
    assert.ok(text.includes(name) || (await page.locator(`input[value="${name}"]`).count()) > 0, `preset ${name}`);
  }
  // Edit cluster A's price, type a bad value into its node count, and reload.
  await page.fill("#cluster-0-price", "7.5");
  await page.fill("#cluster-0-nodes", "12x");
  assert.match(await page.locator("#cluster-0-nodes + .field-error").textContent(), /expected a number/);
  await page.click("#add-cluster");
  await page.waitForSelector("#cluster-custom-1");
  await page.reload();
  await ready(page);
  assert.equal(await page.inputValue("#cluster-0-price"), "7.5");
  assert.equal(await page.inputValue("#cluster-0-nodes"), "128", "an invalid edit never reaches the catalog");
  assert.equal(await page.locator("#cluster-custom-1").count(), 1, "the added cluster survives a reload");
  await shot(page, "clusters-edited");
  await page.click("#reset-catalog");
  assert.equal(await page.inputValue("#cluster-0-price"), "1");
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("workspace export and import: a bad file changes nothing and says why", async () => {
  const { context, page } = await freshPage(browser, server.origin);
  await page.goto(`${server.base}#/clusters`);
  await ready(page);
  await page.fill("#cluster-1-price", "4.25");
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#export-workspace")]);
  const exported = JSON.parse(await readFile(await download.path(), "utf8"));
  assert.equal(exported.format, "scalewise-workspace");
  assert.equal(exported.catalog.clusters[1].price_per_cpu_hour, 4.25);

  await page.setInputFiles("#import-workspace", { name: "bad.json", mimeType: "application/json", buffer: Buffer.from("{\"format\": 3") });
  await page.waitForSelector(".notice:has-text('Import failed')");
  assert.match(await page.locator(".notice").first().textContent(), /nothing changed.*not valid JSON/);
  assert.equal(await page.inputValue("#cluster-1-price"), "4.25");

  exported.catalog.clusters[1].price_per_cpu_hour = 9;
  await page.setInputFiles("#import-workspace", { name: "good.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(exported)) });
  await page.waitForSelector(".notice:has-text('Workspace imported')");
  assert.equal(await page.inputValue("#cluster-1-price"), "9");
  await context.close();
});

// Each entry (index.html, and one HTML file per calculator) loads only its own wasm: measure
// what each loads, from a fresh page, and hold every one to the budget.

test("every page loads under 300 KB gzipped", async () => {
  const report = [];
  for (const entry of ENTRIES) {
    const { context, page } = await freshPage(browser, server.origin);
    const bodies = [];
    page.on("response", async (r) => {
      if (r.url().startsWith(server.origin)) bodies.push(r.body().then((b) => [new URL(r.url()).pathname, b]).catch(() => null));
    });
    await page.goto(`${server.base}${entry}`);
    await ready(page);
    const loaded = (await Promise.all(bodies)).filter(Boolean);
    // The service worker and the manifest the page links count too, even when the browser
    // fetches them outside the page (a worker's script, a manifest read only on install).
    for (const file of ["sw.js", "manifest.webmanifest"]) {
      if (!loaded.some(([p]) => p.endsWith(`/${file}`))) {
        loaded.push([`${SUBPATH}${file}`, await readFile(new URL(`../../dist/${file}`, import.meta.url))]);
      }
    }
    assert.ok(await page.evaluate(() => document.querySelector("link[rel=manifest]") !== null), "the page links its manifest");
    let total = 0;
    const lines = [];
    for (const [path, body] of loaded) {
      const gz = gzipSync(body, { level: 9 }).length;
      total += gz;
      lines.push(`    ${path.split("/").pop() || "index.html"}: ${body.length} bytes, ${gz} gzipped`);
    }
    report.push(`  ${entry || "index.html"}: ${total} bytes gzipped\n${lines.join("\n")}`);
    assert.ok(loaded.some(([p]) => p.endsWith(".wasm")), `${entry || "index.html"}: the wasm was loaded`);
    assert.equal(loaded.filter(([p]) => p.endsWith(".wasm")).length, 1, `${entry || "index.html"}: one wasm`);
    if (total >= 300 * 1024) console.log(lines.join("\n"));
    assert.ok(total < 300 * 1024, `${entry || "index.html"}: total ${total} bytes gzipped exceeds 300 KB`);
    await context.close();
  }
  console.log(`size of what each page loads (budget 307200 bytes gzipped):\n${report.join("\n")}`);
});

test("an input too large to save is kept in the tab, said so, and never breaks the saved workspace", async () => {
  const { context, page, problems } = await freshPage(browser, server.origin);
  await page.goto(`${server.base}speedup.html`);
  await ready(page);
  await page.fill("#target", "64");
  // Over the 1 MiB an input keeps (model::workspace::MAX_FIELD_BYTES): about 1.2 MB.
  const big = "n\tspeedup\n" + Array.from({ length: 120000 }, (_, i) => `${i + 2}\t1.5`).join("\n");
  assert.ok(big.length > 1 << 20);
  // Pasted in one go (playwright's fill is slow for a megabyte of text).
  await page.evaluate((text) => {
    const el = document.getElementById("points");
    el.value = text;
    el.dispatchEvent(new InputEvent("input", { bubbles: true }));
  }, big);
  await page.waitForSelector(".notice:has-text('Not saved in this browser')");
  assert.equal((await page.inputValue("#points")).length, big.length, "the text stays in the tab");
  await page.reload();
  await ready(page);
  assert.equal(await page.locator(".notice:has-text('could not be read')").count(), 0, "the saved workspace still reads");
  assert.equal(await page.inputValue("#target"), "64", "the last good save is kept");
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});
