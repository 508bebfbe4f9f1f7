// Honest on every page (issue 33), as a careful user checks it by hand: no input half read,
// no range below what was measured, advice that counts the measurements, labels that can be
// told apart, share links that carry what they need, and controls that say their state.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { serveDist, launch, freshPage, openEntry, ready, shot } from "./harness.mjs";

let server, browser;
before(async () => { server = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

/** Sets a text box the way a paste does (one input event). */
const paste = (page, sel, text) => page.evaluate(([s, t]) => {
  const el = document.querySelector(s);
  el.value = t;
  el.dispatchEvent(new InputEvent("input", { bubbles: true }));
}, [sel, text]);

const OSU = `# OSU MPI Latency Test v5.9
# Size          Latency (us)
0                       1.62
1                       1.60
2                       1.61
4                       1.61
8                       1.62
16                      1.63
32                      1.66
64                      1.79
128                     1.86
256                     2.28
512                     2.41
1024                    2.69
2048                    3.30
4096                    4.39
8192                    6.18
16384                   9.69
32768                  12.60
65536                  17.91
131072                 28.52
262144                 49.87
`;

test("comm: a typo in a benchmark output is an error at its line; the fits go stale and nothing is saved from them", async () => {
  const { context, page, problems } = await openEntry(browser, server, "comm.html");
  await paste(page, "#p2p", OSU);
  await page.waitForSelector("#save-fabric");
  await paste(page, "#p2p", OSU.replace("4096                    4.39", "4096                    1.8g"));
  const err = page.locator("#p2p-error li").first();
  await err.waitFor();
  // Column 25: the character where "1.8g" starts, as every page counts columns (issue 45, item 21).
  assert.match(await err.textContent(), /line 16, column 25: expected a number, found "1\.8g"/);
  assert.ok(await page.locator("h2:has-text('Point-to-point') ~ .stale").first().isVisible(), "the fits are marked stale");
  assert.equal(await page.locator("#save-fabric").count(), 0, "no saving of a stale fit");
  assert.match(await page.locator("#save-stale").textContent(), /fix it to save or export/);
  await shot(page, "honest-comm-typo");
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("comm: IMB output without a protocol change reports no knee", async () => {
  const { context, page } = await openEntry(browser, server, "comm.html");
  // Two segments that fit better than one, the long messages faster at the split: no switch.
  const rows = [];
  for (let j = 0; j <= 22; j++) {
    const m = 2 ** j;
    rows.push(`${m} 1000 ${(m >= 65536 ? 2 + m / 1400 : 6 + m / 1000).toFixed(3)} 0`);
  }
  await paste(page, "#p2p", `# Benchmarking PingPong\n       #bytes #repetitions      t[usec]   Mbytes/sec\n${rows.join("\n")}\n`);
  await page.waitForFunction(() => /PingPong output; 23 sizes/.test(document.getElementById("p2p-format-read").textContent));
  assert.match(await page.locator("#knee").textContent(), /^No protocol knee found/);
  await context.close();
});

test("speed-up: one point is refused; headerless times are read as times, and said; 'time (s)' headers read", async () => {
  const { context, page, problems } = await openEntry(browser, server, "speedup.html");
  await paste(page, "#points", "n time (s)\n1 100");
  const err = page.locator("#points-error li").first();
  await err.waitFor();
  assert.match(await err.textContent(), /one process count \(n = 1\) cannot tell how the program scales: measure at a second count, e\.g\. n = 2/);
  // The first paste's error shows no answer of the page's example (issue 63).
  assert.equal(await page.locator(".stale").count(), 0, "no example answer under the first error");
  // Times pasted without a header.
  await paste(page, "#points", "1 100\n2 52.4\n4 28.9\n8 17.1\n16 11.8");
  await page.waitForFunction(() => /read as times in seconds/.test(document.getElementById("warnings")?.textContent ?? ""));
  assert.match(await page.locator("#points-table tbody tr").first().textContent(), /100/);
  assert.doesNotMatch(await page.locator("#warnings").textContent(), /super-linear/);
  // A whitespace header with a unit after a space.
  await paste(page, "#points", "n time (s)\n1 100\n2 52.4\n4 28.9");
  await page.waitForFunction(() => document.querySelectorAll("#points-table tbody tr").length === 3);
  assert.equal(await page.locator("#points-error li").count(), 0);
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("speed-up: the allocation table ranks the measured counts with the forecast", async () => {
  const { context, page } = await openEntry(browser, server, "speedup.html");
  await paste(page, "#points", "n\ttime (s)\n1\t100\n2\t52.4\n4\t28.9\n8\t17.1\n16\t11.8");
  await page.fill("#target", "32, 64, 128, 1024");
  await page.waitForFunction(() => /^16 processes/.test(document.getElementById("allocation-reason")?.textContent.replace(/^Recommended: /, "") ?? ""));
  assert.match(await page.locator("#allocation-reason").textContent(), /16 processes \(16 nodes\): the largest count whose measured efficiency, 53/);
  const md = await page.locator("#allocation-text").textContent();
  assert.match(md, /\| +16 \|.*\| +yes \| +measured \|/);
  assert.match(md, /\| +32 \|.*\| +forecast \|/);
  await context.close();
});

test("planner: the range never falls below the measured compute; a slope of round-off reads 0; costs say their currency", async () => {
  const { context, page } = await openEntry(browser, server, "multigrid.html");
  await paste(page, "#cal1_seq", "work (MB)\ttime (s)\n2048\t1500\n1024\t740\n");
  await paste(page, "#cal1_par", "np,work_mb,time_s\n4,2048,1580\n4,1024,800\n8,2048,1610\n8,1024,825\n");
  await page.fill("#np", "64");
  await page.waitForFunction(() => /^1670 /.test(document.querySelector("#target-table td.time")?.textContent.trim() ?? ""));
  const m = /^1670 \(([0-9.]+)–([0-9.]+)\)$/.exec((await page.locator("#target-table td.time").first().textContent()).trim());
  assert.ok(m && Number(m[1]) >= 1500, `the low end is above the measured 1500 s of compute: ${m}`);
  // Equal overheads at 4 and 8 processes (three work sizes at 8): d is round-off, shown as 0.
  const seq = [[1024, 740.3], [1536, 1117.9], [2048, 1500.7]];
  await paste(page, "#cal1_seq", "work (MB)\ttime (s)\n" + seq.map(([w, t]) => `${w}\t${t}`).join("\n"));
  const par = [[4, 1024], [4, 2048], [8, 1024], [8, 1536], [8, 2048]].map(([n, w]) => `${n},${w},${seq.find((s) => s[0] === w)[1] + 0.1 + 0.03 * w}`);
  await paste(page, "#cal1_par", "np,work_mb,time_s\n" + par.join("\n"));
  await page.waitForFunction(() => document.querySelector("b.d")?.textContent === "0");
  // Costs in the ranking and the allocation table carry the catalog's currency.
  await page.click("text=Load: White Rose");
  await page.waitForSelector("#allocation-text");
  assert.ok((await page.locator("table th").allTextContents()).includes("cost (catalog currency)"));
  assert.match(await page.locator("#allocation-text").textContent(), /cost \(catalog currency\)/);
  await context.close();
});

test("simulate: a skeleton that computes nothing shows no speed-up; Run disabled looks it; a parameter's error sits beside it", async () => {
  const { context, page, problems } = await openEntry(browser, server, "simulate.html");
  await paste(page, "#skeleton", "Loop iterations = 20 {\n Message type = MPI_Send, size = 1024, to = 1 - procnum\n Message type = MPI_Recv, from = 1 - procnum\n}");
  await page.fill("#params", "");
  await page.fill("#numprocs", "2");
  await page.fill("#replications", "3");
  await page.click("#run");
  await page.waitForSelector("#sim-results tbody tr", { timeout: 60000 });
  assert.match(await page.locator("#sim-summary").textContent(), /computes nothing, so there is no speed-up/);
  assert.equal((await page.locator("#sim-results tbody tr td").nth(5).textContent()).trim(), "—");
  // A parameter that names nothing: said under the parameters, and Run looks disabled.
  await page.fill("#params", "xsize = x");
  const beside = page.locator(".field:has(#params) .field-error");
  await beside.waitFor();
  assert.match(await beside.textContent(), /unknown name "x"/);
  assert.ok(await page.locator("#run").isDisabled());
  const opacity = await page.$eval("#run", (b) => Number(getComputedStyle(b).opacity));
  assert.ok(opacity < 0.6, `a disabled Run is drawn faded (opacity ${opacity})`);
  await shot(page, "honest-simulate-disabled");
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("regions: a long error wraps within its field; the next field stays put", async () => {
  const { context, page } = await openEntry(browser, server, "regions.html");
  // The field after the peak's in its row.
  const nextX = () => page.$eval("#peak", (el) => el.closest(".field").nextElementSibling.getBoundingClientRect().x);
  const before = await nextX();
  await page.fill("#peak", "-1e999999 is not a number at all, and this message will be long");
  await page.waitForSelector(".field:has(#peak) .field-error");
  assert.equal(await nextX(), before, "the next field did not move");
  await context.close();
});

test("a share link carries the sender's own clusters: the recipient sees what the sender saw and may add them", async () => {
  // The sender: a cluster of their own, used by a calibration of the planner.
  const sender = await freshPage(browser, server.origin);
  await sender.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.origin });
  await sender.page.goto(`${server.base}index.html#/clusters`);
  await ready(sender.page);
  await sender.page.click("#add-cluster");
  await sender.page.waitForTimeout(300);
  await sender.page.goto(`${server.base}multigrid.html`);
  await ready(sender.page);
  await sender.page.selectOption("#cal1_cluster", "custom-1");
  await sender.page.waitForTimeout(300);
  const want = (await sender.page.locator("#target-table td.time").first().textContent()).trim();
  await sender.page.click("summary:has-text('Share & embed')");
  const link = await sender.page.locator("#share-link").inputValue();
  await sender.context.close();
  // The recipient has no such cluster.
  const recipient = await freshPage(browser, server.origin);
  await recipient.page.goto(link);
  await ready(recipient.page);
  await recipient.page.waitForSelector("#shared-clusters");
  assert.match(await recipient.page.locator("#shared-clusters").textContent(), /My cluster 1 \(custom-1\)/);
  assert.equal(await recipient.page.inputValue("#cal1_cluster"), "custom-1");
  assert.equal((await recipient.page.locator("#target-table td.time").first().textContent()).trim(), want, "the sender's prediction");
  assert.equal(await recipient.page.locator("text=no cluster").count(), 0);
  await recipient.page.click("#shared button:has-text('Add them to my catalog')");
  await recipient.page.waitForSelector("#undo:has-text('clusters are in your catalog')");
  await recipient.page.waitForTimeout(300);
  const clusters = await recipient.context.newPage();
  await clusters.goto(`${server.base}index.html#/clusters`);
  await ready(clusters);
  await clusters.waitForSelector("#cluster-custom-1");
  const names = await clusters.$$eval("input[aria-label='cluster name']", (els) => els.map((e) => e.value));
  assert.ok(names.includes("My cluster 1"), `the recipient's catalog has the cluster: ${names}`);
  await recipient.context.close();
});

test("simulate: the histogram's band reads two different ends", async () => {
  const { context, page } = await openEntry(browser, server, "simulate.html");
  await page.fill("#numprocs", "2");
  await page.fill("#params", "xsize = 256\niterations = 200");
  await page.fill("#replications", "20");
  await page.click("#run");
  await page.waitForSelector("#sim-results tbody tr", { timeout: 60000 });
  const svg = page.locator("figure:has(#chart-sim-times) >> text=SVG");
  const [file] = await Promise.all([page.waitForEvent("download"), svg.click()]);
  const body = await readFile(await file.path(), "utf8");
  const m = /middle 95 % of the runs, ([0-9.]+)–([0-9.]+) s/.exec(body);
  assert.ok(m && m[1] !== m[2], `the band's ends differ: ${m && m[0]}`);
  await context.close();
});

// Issue 45 ("Honest, round 2: the Bottlenecks page under a careful user"), the page's side.
const EXTRAP = new URL("../data/extrap/", import.meta.url).pathname;
const UPSTREAM = new URL("../data/extrap-upstream/", import.meta.url).pathname;

/** The Bottlenecks page once its example is ranked (the results current, not stale). */
async function openBottlenecks() {
  const p = await openEntry(browser, server, "bottlenecks.html");
  await p.page.click("#extrap-example-prompt button");
  await settled(p.page);
  return p;
}

/** Pastes RELeARN's experiment (Extra-P's test data: p processes, n neurons) and waits for its ranking. */
async function relearn(page) {
  await paste(page, "#extrap-text", await readFile(`${UPSTREAM}text/mpa/relearn_data.txt`, "utf8"));
  await page.waitForFunction(() => document.querySelectorAll("#extrap-ranking tbody tr").length === 14 && !document.querySelector(".extrap-results.is-stale"));
}

/** Waits until no ranking runs and the results shown are those of the texts. */
const settled = (page) => page.waitForFunction(() => !document.querySelector("#extrap-progress progress")
  && document.querySelector("#extrap-ranking tbody tr") && !document.querySelector(".extrap-results.is-stale"), null, { timeout: 60_000 });

test("bottlenecks: the page opens on an example, ranked when asked (item 16)", async () => {
  const { context, page, problems } = await openEntry(browser, server, "bottlenecks.html");
  const requests = [];
  page.on("request", (r) => requests.push(r.url()));
  assert.match(await page.inputValue("#extrap-text"), /^# An invented solver's regions/);
  await page.waitForSelector("#extrap-example-prompt button");
  // Until asked, nothing loads the workers' wasm (the page keeps to its size budget).
  await page.waitForTimeout(500);
  assert.ok(!requests.some((u) => u.includes("sw-bottlenecks-worker")), requests.join());
  await page.click("#extrap-example-prompt button");
  await settled(page);
  assert.equal(await page.locator("#extrap-ranking tbody tr").count(), 24);
  assert.equal(await page.locator("#extrap-example-prompt").count(), 0);
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("bottlenecks: a metric not in the file is the metric's error; the choices stay and undo it (items 1, 10, 3, 12)", async () => {
  const { context, page, problems } = await openBottlenecks();
  await paste(page, "#extrap-text", await readFile(`${UPSTREAM}json/new/input2.json`, "utf8"));
  await page.waitForFunction(() => [...document.querySelectorAll("#extrap_metric option")].map((o) => o.value).join() === ",time,visits");
  await page.selectOption("#extrap_metric", "visits");
  await page.waitForFunction(() => /metric "visits"/.test(document.querySelector(".extrap .hint")?.textContent ?? "") && !document.querySelector(".extrap-results.is-stale"));
  // Another file without that metric: its error under the metric field, the fields and the
  // last ranking stay (marked stale), and the select undoes it.
  await paste(page, "#extrap-text", await readFile(`${UPSTREAM}text/mpa/relearn_data.txt`, "utf8"));
  const err = page.locator("#extrap_metric ~ .field-error");
  await err.waitFor();
  assert.match(await err.textContent(), /no metric "visits" in this experiment; it has time/);
  assert.equal(await page.locator("#extrap-text-error li").count(), 0, "not the experiment's error");
  assert.ok(await page.locator(".extrap-results.is-stale #extrap-ranking tbody tr").first().isVisible(), "the last ranking stays, marked stale");
  assert.ok(await page.locator("#extrap_hold").isVisible() && await page.locator("#extrap_process").isVisible());
  await shot(page, "honest-extrap-metric");
  await page.selectOption("#extrap_metric", "");
  await settled(page);
  // The file's own names: p is the process count, n the neurons.
  assert.match(await page.locator("#extrap-dominant").textContent(), /At p = \d+ \(n = 9000\)/);
  assert.match(await page.locator("#extrap-ranking th").nth(2).textContent(), /share at p = \d+/);
  assert.match(await page.locator("#extrap-ranking thead").textContent(), /stops scaling at p/);
  // The process count is a choice of the file's parameters, kept as a page input.
  await page.selectOption("#extrap_process", "n");
  await page.waitForFunction(() => /share at n = 36000/.test(document.querySelector("#extrap-ranking th:nth-child(3)")?.textContent ?? "") && !document.querySelector(".extrap-results.is-stale"));
  // p held at its largest, 512.
  assert.match(await page.locator("#extrap-dominant").textContent(), /At n = 36000 \(p = 512\)/);
  await page.reload();
  await ready(page);
  assert.equal(await page.inputValue("#extrap_process"), "n");
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("bottlenecks: a bad 'rank at' is its field's error and draws nothing new; whole points off the held value get their table (items 6, 9, 10)", async () => {
  const { context, page, problems } = await openBottlenecks();
  await relearn(page);
  await page.fill("#extrap_predict", "2048:9000");
  await page.waitForFunction(() => /share at p = 2048/.test(document.querySelector("#extrap-ranking th:nth-child(3)")?.textContent ?? "") && !document.querySelector(".extrap-results.is-stale"));
  const columns = await page.locator("#extrap-heat thead th").count();
  assert.ok(columns > 3, `${columns} columns`);
  for (const bad of ["1024:abc", "0:9000"]) {
    await page.fill("#extrap_predict", bad);
    const err = page.locator("#extrap_predict ~ .field-error");
    await err.waitFor();
    assert.match(await err.textContent(), new RegExp(`found "${bad}"`));
    assert.equal(await page.locator("#extrap-text-error li").count(), 0, "not the experiment's error");
    await page.waitForSelector(".extrap-results.is-stale");
    assert.equal(await page.locator("#extrap-heat thead th").count(), columns, `${bad}: the heat map is the last good one`);
    assert.match(await page.locator("#extrap-ranking th").nth(2).textContent(), /share at p = 2048/);
  }
  await shot(page, "honest-extrap-rank-at");
  await page.fill("#extrap_predict", "1024:9000, 2048:18000");
  await settled(page);
  assert.deepEqual(await page.locator("#extrap-ranking h4").allTextContents(), ["n = 9000", "n = 18000"]);
  assert.ok(!/held at its largest/.test(await page.locator("#extrap").textContent()), "nothing was held");
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("bottlenecks: a region that grows opens on the speed-up page as growing, at this page's time (item 2)", async () => {
  const { context, page, problems } = await openBottlenecks();
  await relearn(page);
  await page.fill("#extrap_predict", "2048, 8192");
  await page.waitForFunction(() => /share at p = 8192/.test(document.querySelector("#extrap-ranking thead")?.textContent ?? "") && !document.querySelector(".extrap-results.is-stale"));
  const first = (s) => Number(/[0-9.]+(e[-+]?[0-9]+)?/.exec(s.replace(/,/g, ""))[0]);
  for (const region of ["Initialization", "main()"]) {
    const row = page.locator("#extrap-ranking tbody tr", { has: page.locator(`button.link[title^="${region}:"]`) });
    const link = row.locator("button.link:not(.tree-toggle)");
    // The time at the last count asked (8192), then its range.
    const here = await row.locator("td").nth(4).evaluate((td) => [td.firstChild.textContent, td.querySelector(".hint").textContent]);
    const [speedup] = await Promise.all([context.waitForEvent("page"), link.click()]);
    await speedup.waitForSelector("#weak-predictions tbody tr", { timeout: 30_000 });
    assert.equal(await speedup.locator("#scaling").inputValue(), "weak");
    assert.match(await speedup.locator("#weak-model").textContent(), /the Bottlenecks page's/);
    assert.match(await speedup.locator("main").textContent(), new RegExp(`modelled as on the Bottlenecks page: the model of ${region.replace(/[()]/g, "\\$&")} fitted to its 25 points, read along p \\(this page's n\\), n = 9000 held`));
    const cells = await speedup.locator("#weak-predictions tbody tr").last().locator("td").allTextContents();
    assert.equal(cells[0], "8192");
    const there = cells[1];
    // The same time at 8192 on both pages (to the digits shown), and above the time measured at 512.
    const [t, lo, hi] = [first(here[0]), ...here[1].split("–").map(first)];
    const shown = there.replace(/,/g, "").match(/[0-9.]+(e[-+]?[0-9]+)?/g).map(Number);
    assert.ok(Math.abs(shown[0] / t - 1) < 0.005, `${region}: ${there} there, ${here.join(" ")} here`);
    assert.ok(Math.abs(shown[1] / lo - 1) < 0.005 && Math.abs(shown[2] / hi - 1) < 0.005, `${region}: ${there} there, ${here.join(" ")} here`);
    const measured = Number((await speedup.locator("#weak-points tbody tr").last().locator("td").nth(1).textContent()).replace(/,/g, ""));
    assert.ok(shown[0] > measured, `${region}: ${shown[0]} at 8192, ${measured} measured at 512`);
    if (region === "Initialization") {
      assert.ok(Math.abs(t - 24.01) < 0.01, `${t}`);
      await speedup.locator("#weak-model").scrollIntoViewIfNeeded();
      await shot(speedup, "honest-growing-region-on-speedup");
    }
    await speedup.close();
  }
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

/** Rows of a CSV text (RFC 4180, as the page writes). */
function csvRows(text) {
  return text.trimEnd().split("\r\n").map((line) => {
    const out = [];
    let field = "", quoted = false;
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (quoted) { if (c === '"' && line[i + 1] === '"') { field += '"'; i++; } else if (c === '"') quoted = false; else field += c; }
      else if (c === '"') quoted = true;
      else if (c === ",") { out.push(field); field = ""; }
      else field += c;
    }
    out.push(field);
    return out;
  });
}

test("bottlenecks: the ranking's and the heat map's CSV hold numbers, a column each (item 17)", async () => {
  const { context, page, problems } = await openBottlenecks();
  const download = async (name) => {
    const [file] = await Promise.all([page.waitForEvent("download"), page.click(`button[data-csv-file='${name}']`)]);
    return csvRows(await readFile(await file.path(), "utf8"));
  };
  // The time column names its unit on the page too (issue 63).
  const shownHead = await page.locator(".extrap-ranking thead th").allTextContents();
  assert.ok(shownHead.some((h) => /^time at p = 1024, s \(90 % range\)$/.test(h)), `a unit in ${shownHead}`);
  const rows = await download("bottlenecks-ranking.csv");
  const head = rows[0];
  assert.deepEqual(head.slice(0, 5), ["#", "region (call tree)", "own share at p = 256 (%)", "low (%)", "high (%)"]);
  for (const name of ["time at p = 1024 (s)", "time low (s)", "time high (s)", "grows with p", "stops scaling at p"]) assert.ok(head.includes(name), `${name} in ${head}`);
  const number = (s) => s === "" || Number.isFinite(Number(s));
  for (const row of rows.slice(1)) {
    assert.equal(row.length, head.length);
    for (const name of ["own share at p = 256 (%)", "low (%)", "high (%)", "time at p = 1024 (s)", "time low (s)", "time high (s)"]) {
      assert.ok(number(row[head.indexOf(name)]) && row[head.indexOf(name)] !== "", `${name}: ${row[head.indexOf(name)]}`);
    }
    assert.match(row[head.indexOf("grows with p")], /^(true|false)$/);
  }
  await relearn(page);
  await page.waitForSelector("#extrap-heat + button.csv");
  const heat = await download("bottlenecks-heat-map.csv");
  assert.equal(heat[0][0], "n");
  assert.match(heat[0][1], /^time at p = \d+ \(s\)$/);
  assert.match(heat[0][2], /^top region at p = \d+$/);
  assert.ok(heat.length >= 3 && heat.slice(1).every((r) => Number(r[0]) >= 5000), heat.map((r) => r[0]).join());
  for (const row of heat.slice(1)) for (let k = 1; k < row.length; k += 2) assert.ok(number(row[k]), row[k]);
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

/**
 * Types `key` into "rank at" and measures, in the page, from the key press to the ranking's
 * table showing `want` in its third header (the redraw of the new targets).
 */
async function keystroke(page, key, want) {
  await page.evaluate(([key, want]) => {
    window.swKey = { want: new RegExp(want), start: 0, ms: null, stale: false };
    // From this key's keydown (not the End pressed before it).
    const down = (e) => {
      if (e.key !== key) return;
      window.swKey.start = performance.now();
      removeEventListener("keydown", down, { capture: true });
    };
    addEventListener("keydown", down, { capture: true });
    const seen = new MutationObserver(() => {
      if (window.swKey.start && document.querySelector(".extrap-results.is-stale")) window.swKey.stale = true;
      const th = document.querySelector("#extrap-ranking th:nth-child(3)");
      if (window.swKey.start && th && window.swKey.want.test(th.textContent) && !document.querySelector(".extrap-results.is-stale")) {
        window.swKey.ms = performance.now() - window.swKey.start;
        seen.disconnect();
      }
    });
    seen.observe(document.getElementById("extrap"), { subtree: true, childList: true, characterData: true, attributes: true });
  }, [key, want]);
  await page.focus("#extrap_predict");
  await page.keyboard.press("End");
  await page.keyboard.press(key);
  await page.waitForFunction(() => window.swKey.ms !== null, null, { timeout: 30_000 });
  const { ms, stale } = await page.evaluate(() => window.swKey);
  // The kept fits are evaluated at the new point: the results shown are not marked stale
  // meanwhile (a repaint of the whole ranking, then another when the new one comes).
  assert.equal(stale, false, `key ${key}: the results were marked stale`);
  return ms;
}

// Item 22: the kept fits are evaluated again rather than refitted, the results are not marked
// stale meanwhile, the view comes without the points the page already has, and the worker
// answers on a channel of its own, which Chrome does not hold back until the next frame.
// The timings (targets: 16 ms for 14 regions, 100 ms for 2,000) are printed for make bench
// and the notes, not asserted: a timed assertion fails on a busy machine, not on slow code.
test("bottlenecks: a keystroke in 'rank at' redraws the ranking at the new point (timed, 14 and 2,000 regions)", async () => {
  const { context, page, problems } = await openBottlenecks();
  await relearn(page);
  await page.fill("#extrap_predict", "20");
  await settled(page);
  const small = [];
  for (const [key, want] of [["4", "= 204\\b"], ["8", "= 2048\\b"], ["Backspace", "= 204\\b"], ["0", "= 2040\\b"]]) small.push(await keystroke(page, key, want));
  console.log(`browser: 'rank at' keystroke to redraw, relearn (14 regions): ${small.map((ms) => ms.toFixed(1)).join(", ")} ms`);
  // Two thousand regions (tests/browser/extrap.test.mjs's experiment).
  const lines = ["PARAMETER p", "POINTS 2 4 8 16 32 64"];
  for (let r = 0; r < 2000; r++) {
    lines.push(`REGION r${r}`, "METRIC time");
    const [a, b, c] = [1 + (r % 7), 0.01 * (r % 5), 0.001 * (r % 3)];
    for (const p of [2, 4, 8, 16, 32, 64]) {
      const t = a / p + b + c * Math.log2(p);
      lines.push(`DATA ${t * 0.99} ${t} ${t * 1.02}`);
    }
  }
  await paste(page, "#extrap-text", lines.join("\n") + "\n");
  await page.fill("#extrap_predict", "51");
  await page.waitForFunction(() => document.querySelectorAll("#extrap-ranking tbody tr").length === 60 && !document.querySelector(".extrap-results.is-stale")
    && /= 51\b/.test(document.querySelector("#extrap-ranking th:nth-child(3)")?.textContent), null, { timeout: 120_000 });
  const large = [];
  for (const [key, want] of [["2", "= 512\\b"], ["Backspace", "= 51\\b"], ["3", "= 513\\b"]]) large.push(await keystroke(page, key, want));
  console.log(`browser: 'rank at' keystroke to redraw, 2,000 regions: ${large.map((ms) => ms.toFixed(0)).join(", ")} ms`);
  console.log(`# browser: 'rank at' keystroke to redraw, longest: ${Math.max(...small).toFixed(1)} ms (14 regions, target 16), ${Math.max(...large).toFixed(0)} ms (2,000 regions, target 100)`);
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("bottlenecks: the workers answer on channels of their own, not on their ports, which Chrome holds back after a keystroke until the next frame (item 22)", async () => {
  const { context, page, problems } = await openEntry(browser, server, "bottlenecks.html");
  // What reaches the page on broadcast channels and on the workers' ports.
  await context.addInitScript(() => {
    window.swHeard = { channel: 0, port: 0 };
    const B = window.BroadcastChannel;
    window.BroadcastChannel = class extends B { constructor(...a) { super(...a); this.addEventListener("message", () => window.swHeard.channel++); } };
    const W = window.Worker;
    window.Worker = class extends W { constructor(...a) { super(...a); this.addEventListener("message", () => window.swHeard.port++); } };
  });
  await page.reload();
  await ready(page);
  await page.click("#extrap-example-prompt button");
  await settled(page);
  await relearn(page);
  await page.fill("#extrap_predict", "2048");
  await page.waitForFunction(() => /= 2048\b/.test(document.querySelector("#extrap-ranking th:nth-child(3)")?.textContent ?? "") && !document.querySelector(".extrap-results.is-stale"));
  const heard = await page.evaluate(() => window.swHeard);
  // Each worker's "ready", the progress and the rankings: every one on a channel.
  assert.ok(heard.channel >= 4, JSON.stringify(heard));
  assert.equal(heard.port, 0, JSON.stringify(heard));
  // The view of the kept fits came without the regions' points, which the page put back:
  // the heat map keeps relearn's measured values of n as rows, and a region opens with its
  // points in the speed-up calculator.
  assert.match(await page.locator("#extrap-heat tbody").textContent(), /8000/);
  const [speedup] = await Promise.all([context.waitForEvent("page"), page.locator("#extrap-ranking tbody tr button.link:not(.tree-toggle)").first().click()]);
  await speedup.waitForSelector("#points");
  assert.ok((await speedup.locator("#points").inputValue()).trim().split("\n").length >= 3, "the region's points are in the speed-up calculator's table");
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("bottlenecks: at 1280 px every column of a Score-P call tree shows without scrolling, and no number breaks (item 18)", async () => {
  const { context, page, problems } = await openBottlenecks();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.setInputFiles("#runs-folder", `${UPSTREAM}cubeset/single_parameter`);
  await page.waitForFunction(() => /x = 32000/.test(document.querySelector("#extrap-ranking th:nth-child(4)")?.textContent ?? "")
    && !document.querySelector(".extrap-results.is-stale"), null, { timeout: 120_000 });
  await page.locator("#extrap-ranking").scrollIntoViewIfNeeded();
  await shot(page, "honest-extrap-1280");
  const [scroll, client] = await page.evaluate(() => { const d = document.getElementById("extrap-ranking"); return [d.scrollWidth, d.clientWidth]; });
  assert.ok(scroll <= client, `the ranking scrolls sideways: ${scroll} > ${client} px`);
  // Each term of a model stays on one line: "6.591e-19·x^3" never splits after "e-".
  const terms = await page.evaluate(() => [...document.querySelectorAll("#extrap-ranking td.formula")].map((td) => [...td.querySelectorAll(".term")].map((t) => t.getClientRects().length)));
  assert.ok(terms.length >= 4 && terms.every((t) => t.length >= 1 && t.every((lines) => lines === 1)), JSON.stringify(terms));
  // Numbers in the other cells stay whole too: each number cell's first line is one token.
  const split = await page.evaluate(() => [...document.querySelectorAll("#extrap-ranking td.num")].filter((td) => {
    const first = td.firstChild;
    if (!first || first.nodeType !== Node.TEXT_NODE) return false;
    const r = document.createRange(); r.selectNodeContents(first);
    return r.getClientRects().length > 1;
  }).map((td) => td.textContent));
  assert.deepEqual(split, []);
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});
