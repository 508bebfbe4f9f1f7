// Every results table on every page has a CSV button, and what it downloads is the table on
// screen: each page is brought to a state with its tables shown (charts' data tables opened),
// then every table without inputs must be followed by its button, and every button's file is
// parsed as RFC 4180 CSV and compared cell by cell with the table. Also the planner page's
// allocation table: its rows are the page's ranking, the format switch, copy and download.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { serveDist, launch, freshPage, openEntry, ready, shot } from "./harness.mjs";

const DATA = new URL("../data/extrap/", import.meta.url).pathname;

let server, browser;
before(async () => { server = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

/** RFC 4180: records of fields; quoted fields may hold commas, doubled quotes and line breaks. */
function parseCsv(text) {
  const rows = [];
  let row = [], field = "", i = 0, quoted = false;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i += 2; continue; }
      if (c === '"') { quoted = false; i++; continue; }
      field += c; i++; continue;
    }
    if (c === '"' && field === "") { quoted = true; i++; continue; }
    if (c === ",") { row.push(field); field = ""; i++; continue; }
    if (c === "\r" && text[i + 1] === "\n") { row.push(field); rows.push(row); row = []; field = ""; i += 2; continue; }
    field += c; i++;
  }
  if (field !== "" || row.length) { row.push(field); rows.push(row); }
  return rows;
}

/** Opens every closed disclosure (charts' "Data table" and the like) so its tables show too. */
async function openChartTables(page) {
  const closed = page.locator("details:not([open]) > summary");
  for (let n = await closed.count(); n > 0; n--) {
    if (!(await closed.count())) break;
    await closed.first().click();
  }
  await page.waitForFunction(() => [...document.querySelectorAll("details.chart-data")].every((d) => d.open && d.querySelector("table")));
}

/**
 * The page's results tables (those without inputs) and whether each is followed by a CSV
 * button, with its cells as the page shows them (a cell's data-csv where it has one).
 */
function tablesOnPage(page) {
  return page.evaluate(() => [...document.querySelectorAll("table")]
    .filter((t) => !t.querySelector("input, select, textarea"))
    .map((t) => {
      let next = t.nextElementSibling;
      // As site.js finds a button's table: the table right before it, or inside the element
      // right before it (a chart's scroll box, the simulation's per-process box).
      if (!next) next = t.parentElement.nextElementSibling;
      const fields = (c) => (c.hasAttribute("data-csv-fields") ? JSON.parse(c.getAttribute("data-csv-fields")) : [c.getAttribute("data-csv") ?? c.textContent]);
      const cells = [...t.querySelectorAll("tr")].map((r) => [...r.children].flatMap(fields).map((s) => s.trim()));
      return { name: t.id || t.className, hasButton: !!next && next.matches("button.csv"), cells };
    }));
}

/** Clicks every CSV button and checks each file against its table; returns the file names. */
async function checkAll(page, minimum) {
  const tables = await tablesOnPage(page);
  assert.ok(tables.length >= minimum, `at least ${minimum} results tables, found ${tables.length}`);
  const missing = tables.filter((t) => !t.hasButton).map((t) => t.name);
  assert.deepEqual(missing, [], "every results table has a CSV button");
  const buttons = page.locator("button.csv");
  assert.equal(await buttons.count(), tables.length, "one button per table");
  const names = [];
  for (let k = 0; k < tables.length; k++) {
    const [file] = await Promise.all([page.waitForEvent("download"), buttons.nth(k).click()]);
    const text = await readFile(await file.path(), "utf8");
    assert.deepEqual(parseCsv(text), tables[k].cells, `${file.suggestedFilename()} is the table ${tables[k].name}`);
    assert.ok(tables[k].cells.length >= 2, `${tables[k].name} has a header and rows`);
    assert.match(file.suggestedFilename(), /^[a-z0-9-]+\.csv$/);
    names.push(file.suggestedFilename());
  }
  assert.equal(new Set(names).size <= names.length, true);
  return names;
}

test("home and clusters: the calibration's histogram table downloads as shown", async () => {
  const { context, page, problems } = await openEntry(browser, server, "index.html#/clusters");
  let s = "";
  for (const size of [1, 1024, 65536]) for (let r = 0; r < 4; r++) s += `${size}\t${(size * 1e-9 + 2e-6 * (1 + r / 10)).toExponential(4)}\n`;
  await page.fill("#calibration-samples", s);
  await page.waitForSelector("#calibration-histograms tbody tr");
  const names = await checkAll(page, 1);
  assert.ok(names.includes("calibration-histograms.csv"), names.join());
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("planner: every table, the charts' data included, downloads as shown", async () => {
  const { context, page, problems } = await openEntry(browser, server, "multigrid.html");
  await page.waitForSelector("#ranking tbody tr");
  await openChartTables(page);
  const names = await checkAll(page, 5);
  for (const n of ["multigrid-target.csv", "multigrid-ranking.csv", "chart-time-np.csv"]) assert.ok(names.includes(n), names.join());
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("regions: every table downloads as shown", async () => {
  const { context, page, problems } = await openEntry(browser, server, "regions.html");
  await page.waitForSelector("#cases tbody tr");
  await openChartTables(page);
  const names = await checkAll(page, 4);
  assert.ok(names.includes("regions-cases.csv"), names.join());
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("speed-up: the fits, forecast, predictions and points download as shown", async () => {
  const { context, page, problems } = await openEntry(browser, server, "speedup.html");
  await page.waitForSelector("#forecast tbody tr");
  await openChartTables(page);
  const names = await checkAll(page, 5);
  for (const n of ["speedup-fits.csv", "speedup-forecast.csv", "speedup-predictions.csv", "speedup-points.csv"]) {
    assert.ok(names.includes(n), names.join());
  }
  // A forecast cell as typed on screen, e.g. "2.5 (2.1–2.9)", with its en dash and spaces.
  const [file] = await Promise.all([page.waitForEvent("download"), page.locator("#forecast + button.csv").click()]);
  const rows = parseCsv(await readFile(await file.path(), "utf8"));
  assert.equal(rows[0][0], "n");
  assert.equal(rows.length, 1 + await page.locator("#forecast tbody tr").count());
  assert.equal(rows[1][1], (await page.locator("#forecast tbody tr").first().locator("td").nth(1).textContent()).trim());
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("bottlenecks: the Extra-P ranking downloads as shown", async () => {
  const { context, page, problems } = await openEntry(browser, server, "bottlenecks.html");
  await page.setInputFiles("#extrap-file", `${DATA}app.txt`);
  await page.waitForSelector("#extrap-ranking tbody tr");
  await openChartTables(page);
  const names = await checkAll(page, 2);
  assert.ok(names.includes("bottlenecks-ranking.csv"), names.join());
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("communication: every table downloads as shown", async () => {
  const { context, page, problems } = await openEntry(browser, server, "comm.html");
  await page.waitForSelector("table.results tbody tr");
  await openChartTables(page);
  const names = await checkAll(page, 3);
  assert.ok(names.some((n) => n.startsWith("comm-")), names.join());
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("broadcast across sites: every table downloads as shown", async () => {
  const { context, page, problems } = await openEntry(browser, server, "sites.html");
  await page.waitForSelector("#coordinators tbody tr");
  await openChartTables(page);
  const names = await checkAll(page, 2);
  assert.ok(names.some((n) => n.startsWith("comm-")), names.join());
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("simulation: the results and per-process tables download as shown", async () => {
  const { context, page, problems } = await openEntry(browser, server, "simulate.html");
  await page.fill("#numprocs", "2 4");
  await page.fill("#params", "xsize = 256\niterations = 100");
  await page.fill("#replications", "5");
  await page.click("#run");
  await page.waitForSelector("#sim-results tbody tr", { timeout: 60000 });
  await openChartTables(page);
  const names = await checkAll(page, 3);
  for (const n of ["simulate-results.csv", "simulate-per-process.csv"]) assert.ok(names.includes(n), names.join());
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("planner: the allocation table is the ranking's, in three formats, copied and downloaded", async () => {
  const { context, page, problems } = await freshPage(browser, server.origin);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.origin });
  await page.goto(`${server.base}multigrid.html`);
  await ready(page);
  await page.waitForSelector("#allocation-text");
  await page.waitForSelector("#ranking tbody tr");
  await page.fill("#alloc_cores_per_node", "8");
  await page.fill("#alloc_price", "0.5");
  // Up to 256 free processes: 64, 128 and 256 are ranked.
  await page.fill("#free_a", "256");
  await page.waitForFunction(() => document.querySelectorAll("#ranking tbody tr").length > 2);
  await page.waitForFunction(() => /cost \(EUR\)/.test(document.getElementById("allocation-text").textContent));
  // The fastest ranked option per process count, from the ranking table on screen.
  const ranking = await page.locator("#ranking tbody tr").evaluateAll((rows) => rows.map((r) => {
    const td = [...r.children].map((c) => c.textContent.trim());
    const procs = [...td[1].matchAll(/([0-9]+) ×/g)].reduce((a, m) => a + Number(m[1]), 0);
    return { procs, time: td[3].split(" ")[0] };
  }));
  assert.ok(ranking.length > 1);
  const md = await page.locator("#allocation-text").textContent();
  const mdRows = md.split("\n").filter((l) => /^\| +\**[0-9]/.test(l)).map((l) => l.split("|").map((c) => c.trim().replace(/\*\*/g, "")));
  assert.ok(mdRows.length > 1);
  const procs = mdRows.map((r) => Number(r[1]));
  assert.deepEqual(procs, [...procs].sort((a, b) => a - b), "rows by process count");
  let matched = 0;
  for (const r of mdRows) {
    assert.equal(Number(r[2]), Math.ceil(Number(r[1]) / 8), "nodes at 8 cores per node");
    // A count in the shown ranking: its fastest shown option is the row's time.
    const best = ranking.find((x) => x.procs === Number(r[1]));
    if (best) { assert.equal(r[3], best.time, `time at ${r[1]} processes`); matched++; }
  }
  assert.equal(matched, mdRows.length, "every row's count is in the ranking on screen");
  assert.match(await page.locator("#allocation-reason").textContent(), /^Recommended: [0-9]+ processes/);
  await page.selectOption("#alloc_format", "latex");
  await page.waitForFunction(() => document.getElementById("allocation-text").textContent.startsWith("\\begin{tabular}"));
  const [tex] = await Promise.all([page.waitForEvent("download"), page.click("#allocation-download")]);
  assert.equal(tex.suggestedFilename(), "multigrid-allocation.tex");
  assert.equal(await readFile(await tex.path(), "utf8"), await page.locator("#allocation-text").textContent());
  await page.selectOption("#alloc_format", "csv");
  await page.waitForFunction(() => document.getElementById("allocation-text").textContent.startsWith("processes,nodes,"));
  const csv = parseCsv((await page.locator("#allocation-text").textContent()).replace(/\n/g, "\r\n"));
  assert.equal(Number(csv[1][0]), procs[0]);
  await page.click("#allocation-copy");
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), await page.locator("#allocation-text").textContent());
  await page.locator("#allocation").scrollIntoViewIfNeeded();
  await shot(page, "planner-allocation");
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});
