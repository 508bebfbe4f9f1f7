// Formats other tools read and write, in a real browser: the communication page's exports
// (LogGOPSim, SimGrid/SMPI, SST/macro, Open MPI broadcast rules) checked against the fitted
// parameters the page shows, one downloaded; raw osu_bcast output as measured broadcasts.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { serveDist, launch, freshPage, ready, shot } from "./harness.mjs";

let server, browser;
before(async () => { server = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

async function open() {
  const p = await freshPage(browser, server.origin);
  await p.page.goto(`${server.base}comm.html#/comm`);
  await ready(p.page);
  await p.page.waitForSelector("#best-model");
  return p;
}

const num = (s) => Number(s.replace(/\u2212/g, "-"));

/** The text of one export, its details opened. */
async function exportText(page, key) {
  await page.click(`#export-${key} summary`);
  return page.locator(`#export-${key} pre`).textContent();
}

test("exports carry the fitted parameters the page shows", async () => {
  const { context, page, problems } = await open();
  // LogGP's row: "L + 2o = X µs, G = Y µs/B, …".
  const loggp = await page.locator("#model-loggp").textContent();
  const l2o = num(loggp.match(/L \+ 2o = ([-\d.e]+) µs/)[1]);
  const g = num(loggp.match(/G = ([-\d.e]+) µs\/B/)[1]);
  const lg = await exportText(page, "loggopsim");
  const unit = lg.match(/L, o, g in (ns|ps)/)[1];
  const k = unit === "ns" ? 1e3 : 1e6;
  const opt = (o) => num(lg.match(new RegExp(` -${o} (\\d+)`))[1]);
  // The page shows 4 significant digits; the export rounds to whole units.
  assert.ok(Math.abs(opt("L") + 2 * opt("o") - l2o * k) <= l2o * k * 1e-3 + 2, lg);
  assert.ok(Math.abs(opt("G") - g * k) <= g * k * 1e-3 + 1, `${lg} vs G = ${g}`);

  const sg = await exportText(page, "simgrid");
  assert.match(sg, /--cfg=smpi\/lat-factor:[\d.e;:+-]+ --cfg=smpi\/bw-factor:/);
  assert.match(sg, /<link id="fitted" bandwidth="[\d.e+]+Bps" latency="[\d.e+-]+us"\/>/);
  // The default sample has a knee at 64 KiB: two segments.
  assert.match(sg, /lat-factor:65536:[\d.]+;0:1 /, sg);

  const sst = await exportText(page, "sstmacro");
  assert.match(sst, /out_in_latency = [\d.]+us/);
  assert.match(sst, /bandwidth = [\d.]+GB\/s/);

  const rules = await exportText(page, "ompi-rules");
  assert.match(rules, /^1 # number of collectives\n7 # collective id \(bcast\)$/m);
  assert.match(rules, /^20 # comm size$/m, "the broadcast section's 20 processes");
  // The page's Poly-adapt-2 says binomial at 8 KB on 20 processes: rule "8192 6 …" or an
  // earlier rule choosing 6 that still holds there.
  const p20 = rules.split("20 # comm size\n")[1].split("\n").slice(1).filter((l) => /^\d+ \d+ \d+ \d+$/.test(l)).map((l) => l.split(" ").map(Number));
  const at = (m) => p20.filter((r) => r[0] <= m).at(-1)[1];
  assert.equal(at(8192), 6, rules);
  assert.equal(at(524288), 3, rules);

  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#export-ompi-rules button.download")]);
  assert.equal(download.suggestedFilename(), "ompi-bcast-rules.conf");
  assert.equal(await readFile(await download.path(), "utf8"), rules);
  await shot(page, "formats-exports");
  assert.deepEqual(problems.consoleErrors, []);
  assert.deepEqual(problems.foreignRequests, []);
  await context.close();
});

test("raw osu_bcast output becomes measured broadcasts for Poly-adapt", async () => {
  const { context, page, problems } = await open();
  const osu = "# mpirun -np 20 --mca coll_tuned_bcast_algorithm 6 osu_bcast\n# OSU MPI Broadcast Latency Test v7.0\n" +
    "# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations\n" +
    "8192                  610.00            500.00            700.00        1000\n" +
    "524288               9000.00           8000.00           9900.00         100\n";
  await page.fill("#measured", osu);
  await page.waitForSelector("#adapt1");
  const row = await page.locator("#adapt1 tr", { hasText: "binomial" }).first().textContent();
  assert.match(row, /binomial\s*2/, row);
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

// A SimGrid calibration CSV in the shape of platform-calibration's *_PingPong.csv (our own
// numbers): a send and a receive per round trip with the same start, five repetitions.
function pingpong() {
  let s = "", start = 18.0;
  for (const [size, send, recv] of [[1, 2.6e-6, 1.65e-5], [1024, 3.0e-6, 2.4e-5], [65536, 1.2e-5, 1.9e-4], [1048576, 3.9e-4, 1.0e-3]]) {
    for (let r = 0; r < 5; r++) {
      const j = 1 + 0.02 * r;
      s += `MPI_Send,${size},${start.toFixed(6)},${(send * j).toExponential(6)}\n`;
      s += `MPI_Recv,${size},${start.toFixed(6)},${(recv * j).toExponential(6)}\n`;
      start += 0.0015;
    }
  }
  return s;
}

test("the calibration's histograms are charted, one message size at a time", async () => {
  const { context, page, problems } = await freshPage(browser, server.origin);
  await page.goto(`${server.base}index.html#/clusters`);
  await ready(page);
  await page.fill("#calibration-samples", pingpong());
  await page.waitForSelector("#chart-calibration[data-plot]");
  // The select lists the sizes read, the smallest charted first.
  assert.deepEqual(await page.locator("#calibration-size option").allTextContents(), ["1", "1024", "65536", "1048576"]);
  const fig = page.locator("figure.chart-figure", { has: page.locator("#chart-calibration") });
  await fig.locator("details.chart-data summary").click();
  await fig.locator("table.chart-table thead th").first().waitFor();
  /** The chart's data table: [from µs, to µs, probability] per bin. */
  const bins = async () => (await fig.locator("table.chart-table tbody tr").evaluateAll((rows) =>
    rows.map((r) => [...r.querySelectorAll("td")].map((td) => Number(td.textContent.replace(/\u2212/g, "-"))))));
  const headers = await fig.locator("table.chart-table thead th").allTextContents();
  assert.deepEqual(headers, ["one-way time from (µs)", "one-way time to (µs)", "1 B: probability"]);
  const check = (b, fastest, slowest) => {
    // Five samples: Sturges' 4 bins from the fastest to the slowest one-way time, each a
    // whole number of the five samples, together all of them.
    assert.equal(b.length, 4, JSON.stringify(b));
    assert.ok(Math.abs(b[0][0] - fastest) < 1e-6 * fastest, JSON.stringify(b));
    assert.ok(Math.abs(b[3][1] - slowest) < 1e-6 * slowest, JSON.stringify(b));
    for (const [, , p] of b) assert.ok(Math.abs(p * 5 - Math.round(p * 5)) < 1e-9, JSON.stringify(b));
    assert.ok(Math.abs(b.reduce((s, r) => s + r[2], 0) - 1) < 1e-9, JSON.stringify(b));
  };
  // Size 1: (2.6 + 16.5) / 2 = 9.55 µs up to 1.08 times that.
  check(await bins(), 9.55, 9.55 * 1.08);
  assert.match(await page.locator("#chart-calibration").getAttribute("aria-label"), /5 messages of 1 B$/);
  await shot(page, "formats-calibration-chart");
  // Another size redraws the chart with that size's bins: (390 + 1000) / 2 = 695 µs.
  await page.selectOption("#calibration-size", { label: "1048576" });
  await page.waitForFunction(() => /1048576 B$/.test(document.querySelector("#chart-calibration").getAttribute("aria-label")));
  await fig.locator("table.chart-table thead th", { hasText: "1048576 B: probability" }).waitFor();
  assert.equal((await fig.locator("table.chart-table thead th").allTextContents())[2], "1048576 B: probability");
  check(await bins(), 695, 695 * 1.08);
  // The page with its chart and open data table stays axe-clean (site.test.mjs sees the
  // Clusters page before anything is pasted).
  await page.evaluate(await readFile(new URL("../../node_modules/axe-core/axe.min.js", import.meta.url).pathname, "utf8"));
  const violations = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ["violations"] })).violations
    .filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`));
  assert.deepEqual(violations, []);
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("a SimGrid calibration becomes a cluster's machine that the simulation runs on", async () => {
  const { context, page, problems } = await freshPage(browser, server.origin);
  await page.goto(`${server.base}index.html#/clusters`);
  await ready(page);
  await page.fill("#calibration-samples", pingpong());
  await page.waitForSelector("#calibration-histograms tbody tr");
  assert.match(await page.locator("#calibration-read").textContent(), /SimGrid calibration CSV.*4 sizes, 20 samples/);
  assert.equal(await page.locator("#calibration-histograms tbody tr").count(), 4);
  // Size 1: (2.6 + 16.5) / 2 = 9.55 µs is the fastest one-way time.
  assert.match(await page.locator("#calibration-histograms tbody tr").first().textContent(), /9\.55/);
  await shot(page, "formats-calibration");
  await page.click("#save-calibration");
  await page.waitForSelector("#calibration-saved.verdict");

  await page.goto(`${server.base}simulate.html`);
  await ready(page);
  await page.waitForSelector("#run");
  const option = page.locator("#from-catalog option", { hasText: "measured message times" }).first();
  await page.selectOption("#from-catalog", await option.getAttribute("value"));
  await page.fill("#replications", "4");
  await page.click("#run");
  await page.waitForSelector("#sim-results tbody tr", { timeout: 60000 });
  const row = await page.locator("#sim-results tbody tr").first().textContent();
  assert.match(row, /\d/);
  assert.doesNotMatch(row, /NaN|inf/i);
  await shot(page, "formats-simulate-calibration");
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});
