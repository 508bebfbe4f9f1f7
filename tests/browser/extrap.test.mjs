// The "Bottlenecks at scale" page: upload the text fixture (24 regions) and read the ranked
// table, each region's closed-form model, the flags of regions that grow and the dominant
// region; upload the JSON Lines fixture (22 regions, two parameters), hold the problem size,
// predict at whole points and read the heat map; a malformed file is named by line and
// column; a region's name loads its points into the speed-up calculator; the allocation
// table; and 2,000 regions fitted in the page's Web Workers, with progress and Cancel.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serveDist, launch, openEntry, shot, command } from "./harness.mjs";

const DATA = new URL("../data/extrap/", import.meta.url).pathname;

let server, browser;
before(async () => { server = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

async function open() {
  const p = await openEntry(browser, server, "bottlenecks.html");
  await p.page.waitForSelector("#extrap");
  // The page opens on an example (ranked when asked): these tests start from an empty box.
  await p.page.fill("#extrap-text", "");
  await p.page.waitForSelector("#extrap-example-prompt", { state: "detached" });
  return p;
}

/** The command's answer for a fixture (a failure of the command fails the test). */
function cli(args) {
  return command(["bottlenecks", ...args, "--compact"]);
}

const pct = (s) => Number(/([0-9.]+) %/.exec(s)[1]) / 100;

test("upload an Extra-P text file and read the ranked dominant-at-n table", async () => {
  const { context, page, problems } = await open();
  await page.fill("#extrap_predict", "256, 1024");
  const t0 = Date.now();
  await page.setInputFiles("#extrap-file", `${DATA}app.txt`);
  await page.waitForSelector("#extrap-ranking tbody tr");
  console.log(`browser: 24-region Extra-P file ranked in ${Date.now() - t0} ms (upload to table, wall clock)`);
  const rows = page.locator("#extrap-ranking tbody tr");
  assert.equal(await rows.count(), 24);
  // The fixture's call paths nest (main->solve->…): the table lists the call tree, each node
  // under its parent by its short name, with its rank by own share in the first column.
  assert.equal(await page.locator("#extrap-ranking table.tree").count(), 1);
  const top = rows.filter({ has: page.locator("td:first-child", { hasText: /^1$/ }) });
  assert.equal(await top.count(), 1);
  const first = await top.locator("td").allTextContents();
  const link = top.locator("button.link:not(.tree-toggle)");
  // A region whose time grows with n dominates at 1024 (the command says which, below).
  assert.equal((await link.getAttribute("title")).replace(/: open its points.*$/, ""), "main->solve->halo_exchange->wait");
  assert.equal(await link.textContent(), "wait");
  first[1] = "main->solve->halo_exchange->wait";
  // The time, and its range on a line of its own (so that the columns fit 1280 px).
  assert.match(await top.locator("td").nth(4).locator(".hint").textContent(), /^[0-9.]+–[0-9.]+$/);
  assert.match(first[4], /^[0-9.]+[0-9.]+–[0-9.]+$/);
  assert.match(first[5], /p\^/);
  assert.equal(first[6], "grows ↑");
  // Every fourth region of the fixture has a cost that grows as p: each is flagged.
  const flagged = await page.locator("#extrap-ranking .grows").count();
  assert.ok(flagged >= 6, `${flagged} regions flagged as growing`);
  // Shares at 256 and 1024 with ranges, largest at 1024 first.
  assert.match(await top.locator("td").nth(2).locator(".hint").textContent(), /^[0-9.]+ %–[0-9.]+ %$/);
  assert.match(first[2], /^[0-9.]+ %[0-9.]+ %–[0-9.]+ %$/);
  const ranked = [];
  for (let i = 0; i < 24; i++) {
    const cells = rows.nth(i).locator("td");
    ranked.push([Number(await cells.nth(0).textContent()), pct(await cells.nth(3).textContent())]);
  }
  ranked.sort((a, b) => a[0] - b[0]);
  const shares = ranked.map((r) => r[1]);
  assert.deepEqual(ranked.map((r) => r[0]), Array.from({ length: 24 }, (_, i) => i + 1), "ranks 1 to 24");
  assert.ok(shares.every((s, i) => i === 0 || shares[i - 1] >= s), shares.join(" "));
  assert.ok(Math.abs(shares.reduce((a, b) => a + b, 0) - 1) < 0.01, `shares add to ${shares.reduce((a, b) => a + b, 0)}`);
  assert.match(await page.locator("#extrap-dominant").textContent(), /At p = 1024: main->solve->halo_exchange->wait dominates with [0-9.]+ %/);
  assert.match(await page.locator("#extrap-dominant").textContent(), /First to stop scaling: /);
  // The same ranking as the command, where the binary is built.
  const v = cli([`${DATA}app.txt`, "--predict", "256,1024"]);
  {
    const top = v.ranking[1].regions[0];
    assert.equal(top.callpath, first[1]);
    assert.ok(Math.abs(top.share - shares[0]) < 0.0006, `${top.share} vs ${shares[0]}`);
    const region = v.regions.find((r) => r.callpath === top.callpath);
    assert.equal(first[5].split("\n")[0].trim(), region.formula);
  }
  assert.equal(await page.locator("#extrap-heat").count(), 0, "no heat map for one parameter");
  await page.locator("#extrap-dominant").scrollIntoViewIfNeeded();
  assert.ok(await page.locator("canvas#chart-extrap-shares").count() === 1, "the share chart is drawn");
  await shot(page, "extrap-ranking");
  // Clicking a region opens its points in the speed-up calculator, in a new tab.
  const [speedup] = await Promise.all([context.waitForEvent("page"), link.click()]);
  await speedup.waitForSelector("main.page h1");
  await speedup.waitForFunction(() => document.getElementById("points")?.value.startsWith("n\ttime (s)\n2\t"));
  assert.equal(await speedup.locator("#second_column").inputValue(), "time");
  assert.equal(await speedup.locator("#target").inputValue(), "256, 1024");
  assert.deepEqual(problems.consoleErrors, []);
  assert.deepEqual(problems.foreignRequests, []);
  await context.close();
});

test("JSON Lines with a problem size, and a malformed file named by line and column", async () => {
  const { context, page, problems } = await open();
  await page.fill("#extrap_predict", "512");
  await page.setInputFiles("#extrap-file", `${DATA}app.jsonl`);
  await page.waitForSelector("#extrap-ranking tbody tr");
  assert.equal(await page.locator("#extrap-ranking tbody tr").count(), 22);
  assert.match(await page.locator("#extrap .warnings").textContent(), /size held at its largest value, 4000/);
  await page.fill("#extrap_hold", "per-value");
  await page.waitForFunction(() => document.querySelectorAll("#extrap-ranking table").length === 2);
  assert.equal(await page.locator("#extrap-ranking tbody tr").count(), 44);
  assert.match(await page.locator("#extrap-ranking h4").first().textContent(), /size = 1000/);
  // Whole points: one model per region over both parameters predicts beyond both.
  await page.fill("#extrap_hold", "");
  await page.fill("#extrap_predict", "256:8000, 1024:16000");
  await page.waitForFunction(() => /At p = 1024 \(size = 16000\)/.test(document.getElementById("extrap-dominant")?.textContent));
  const v = cli([`${DATA}app.jsonl`, "--predict", "256:8000,1024:16000"]);
  assert.match(await page.locator("#extrap-dominant").textContent(), new RegExp(`At p = 1024 \\(size = 16000\\): ${v.dominant[1].callpath.replace(/[>-]/g, "\\$&")} dominates`));
  // The heat map: sizes down the side (measured, then doublings to 16000), counts across.
  const heat = page.locator("#extrap-heat");
  await heat.scrollIntoViewIfNeeded();
  const sides = await heat.locator("tbody th").allTextContents();
  assert.deepEqual(sides, ["1000", "4000", "8000", "16000"]);
  const cols = await heat.locator("thead th").allTextContents();
  assert.equal(cols.at(-1), "1024");
  const corner = () => heat.locator("tbody tr").last().locator("td").last().evaluate((td) => [td.firstChild.textContent, td.querySelector("small").textContent]);
  const [all, top] = await corner();
  assert.ok(top.length > 0, "the cell names the region that takes most of it");
  await shot(page, "extrap-heat-map");
  // One region's map: a smaller time in the same cell, with its share.
  await page.selectOption("#extrap-heat-region", { index: 1 });
  await page.waitForFunction((before) => document.querySelector("#extrap-heat tbody tr:last-child td:last-child")?.firstChild.textContent !== before, all);
  const [one, share] = await corner();
  assert.ok(parseFloat(one) < parseFloat(all), `${one} < ${all}`);
  assert.match(share, /^[0-9.]+ %$/);
  // Bad input: the line and column, and what was expected; the text is kept.
  await page.fill("#extrap-text", "PARAMETER p\nPOINTS 2 4\nREGION r\nDATA 1 x\n");
  await page.waitForSelector("#extrap-text-error li");
  assert.equal(await page.locator("#extrap-text-error li").textContent(), "line 4, column 8: expected a measured value (a number), found \"x\"");
  assert.match(await page.locator("#extrap-text").inputValue(), /DATA 1 x/);
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("allocation table: the predictions as Markdown, CSV and LaTeX, with a copy button", async () => {
  const { context, page, problems } = await openEntry(browser, server, "speedup.html");
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.origin });
  await page.click("text=Load: Linear and nonlinear parts, no 1-process run");
  await page.waitForSelector("#allocation-text");
  await page.fill("#alloc_cores_per_node", "48");
  await page.fill("#alloc_price", "0.02");
  await page.waitForFunction(() => /cost \(EUR\)/.test(document.getElementById("allocation-text").textContent));
  // The measured counts (their times as in the points table), then the forecast's
  // predictions (their times as in the forecast table).
  const md = await page.locator("#allocation-text").textContent();
  const mdRows = md.split("\n").filter((l) => /^\| +[0-9]/.test(l)).map((r) => r.split("|").map((c) => c.trim()));
  const measured = mdRows.filter((c) => c.at(-2) === "measured");
  const forecast = mdRows.filter((c) => c.at(-2) === "forecast");
  assert.equal(measured.length, await page.locator("#points-table tbody tr").count());
  assert.equal(forecast.length, await page.locator("#forecast tbody tr").count());
  for (let i = 0; i < measured.length; i++) {
    const cells = await page.locator("#points-table tbody tr").nth(i).locator("td").allTextContents();
    assert.equal(measured[i][1], cells[0]);
    assert.equal(Number(measured[i][3]), Number(cells[2]), `time at n = ${cells[0]}`);
  }
  for (let i = 0; i < forecast.length; i++) {
    const cells = await page.locator("#forecast tbody tr").nth(i).locator("td").allTextContents();
    assert.equal(forecast[i][1], cells[0]);
    assert.equal(forecast[i][3], cells[3].split(" ")[0], `time at n = ${cells[0]}`);
    assert.equal(Number(forecast[i][2]), Math.ceil(Number(cells[0]) / 48));
  }
  // Whole nodes billed, and the energy and carbon of the nodes held (issue 60): core-hours =
  // nodes × 48 × time, kWh = node-hours × W × PUE / 1000, kg CO2e = kWh × g/kWh / 1000.
  await page.fill("#alloc_node_power_w", "560");
  await page.fill("#alloc_pue", "1.18");
  await page.fill("#alloc_carbon_g_per_kwh", "343.48");
  await page.waitForFunction(() => /CO2e \(kg\)/.test(document.getElementById("allocation-text").textContent));
  const energyText = await page.locator("#allocation-text").textContent();
  const head = energyText.split("\n")[0].split("|").map((c) => c.trim());
  const col = (name) => { const i = head.indexOf(name); assert.ok(i > 0, `column ${name} in ${head}`); return i; };
  const near = (x, y, what) => assert.ok(Math.abs(x - y) <= 2e-3 * Math.abs(y), `${what}: ${x} against ${y}`);
  const energyRows = energyText.split("\n").filter((l) => /^\| +[0-9]/.test(l)).map((r) => r.split("|").map((c) => c.trim()));
  assert.equal(energyRows.length, mdRows.length);
  for (const r of energyRows) {
    const [nodes, time, nodeHours] = [Number(r[col("nodes")]), Number(r[col("time (s)")]), Number(r[col("node-hours")])];
    near(Number(r[col("core-hours")]), nodes * 48 * time / 3600, `core-hours at ${r[1]}`);
    near(Number(r[col("energy (kWh)")]), nodeHours * 560 * 1.18 / 1000, `kWh at ${r[1]}`);
    near(Number(r[col("CO2e (kg)")]), Number(r[col("energy (kWh)")]) * 343.48 / 1000, `CO2e at ${r[1]}`);
  }
  await page.fill("#alloc_pue", "0.5");
  await page.waitForSelector("text=expected a number from 1 to 10, found \"0.5\"");
  await page.fill("#alloc_pue", "1.18");
  assert.match(await page.locator("#allocation-reason").textContent(), /^Recommended: [0-9]+ processes/);
  await page.selectOption("#alloc_format", "latex");
  await page.waitForFunction(() => document.getElementById("allocation-text").textContent.startsWith("\\begin{tabular}"));
  await page.selectOption("#alloc_format", "csv");
  await page.waitForFunction(() => document.getElementById("allocation-text").textContent.startsWith("processes,nodes,"));
  await page.click("#allocation-copy");
  const clip = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(clip, await page.locator("#allocation-text").textContent());
  await page.locator("#allocation").scrollIntoViewIfNeeded();
  await shot(page, "allocation-table");
  // A bad value is named under its field; the table stays.
  await page.fill("#alloc_cores_per_node", "0");
  await page.waitForSelector("text=expected a number from 1 to 1000000, found \"0\"");
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

/** The Extra-P text of tests/common/mod.rs's `extrap_experiment`: `regions` regions, six counts. */
function experiment(regions) {
  const lines = ["PARAMETER p", "POINTS 2 4 8 16 32 64"];
  for (let r = 0; r < regions; r++) {
    lines.push(`REGION r${r}`, "METRIC time");
    const [a, b, c] = [1 + (r % 7), 0.01 * (r % 5), 0.001 * (r % 3)];
    for (const p of [2, 4, 8, 16, 32, 64]) {
      const t = a / p + b + c * Math.log2(p);
      lines.push(`DATA ${t * 0.99} ${t} ${t * 1.02}`);
    }
  }
  return lines.join("\n") + "\n";
}

test("a value no model takes is named on the page by its line and column (issue 61: negative DATA, 1e300)", async () => {
  const { context, page, problems } = await open();
  const warning = () => page.locator(".warnings li").allTextContents();
  // A region with a value below 0 beside one that is ranked: the warning says which and where.
  await page.fill("#extrap-text", "PARAMETER p\nPOINTS 2 4 8 16\nREGION good\nMETRIC time\nDATA 8\nDATA 4.1\nDATA 2.2\nDATA 1.3\nREGION bad\nMETRIC time\nDATA 1\nDATA -2\nDATA 1\nDATA 1\n");
  await page.waitForFunction(() => document.querySelectorAll("#extrap-ranking tbody tr").length === 1 && !document.querySelector(".extrap-results.is-stale"), null, { timeout: 60_000 });
  const negative = (await warning()).join(" | ");
  assert.match(negative, /1 of 2 regions could not be modelled/);
  assert.match(negative, /bad: a value below 0 at 4 processes \(line 12, column 6\)/);
  // A value of 1e300 is refused alike rather than fitted.
  await page.fill("#extrap-text", "PARAMETER p\nPOINTS 2 4 8 16\nREGION good\nMETRIC time\nDATA 8\nDATA 4.1\nDATA 2.2\nDATA 1.3\nREGION huge\nMETRIC time\nDATA 1\nDATA 1\nDATA 1\nDATA 1e300\n");
  await page.waitForFunction(() => [...document.querySelectorAll(".warnings li")].some((li) => li.textContent.includes("huge")), null, { timeout: 60_000 });
  const huge = (await warning()).join(" | ");
  assert.match(huge, /huge: a value of 1e300 at 16 processes \(line 14, column 6\) is more than 1e100/);
  assert.equal(await page.locator("#extrap-ranking tbody tr").count(), 1);
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("the ranking's workers start without a console warning (issue 63: three 'deprecated parameters')", async () => {
  const { context, page, problems } = await openEntry(browser, server, "bottlenecks.html");
  const said = [];
  const listen = (m) => { if (m.type() === "warning" || m.type() === "error") said.push(m.text()); };
  page.on("console", listen);
  page.on("worker", (w) => w.on("console", listen));
  for (const w of page.workers()) w.on("console", listen);
  // An edit starts the workers again, after the listeners are in place.
  await page.fill("#extrap-text", "PARAMETER p\nPOINTS 2 4 8 16\nREGION a\nMETRIC time\nDATA 8\nDATA 4.1\nDATA 2.2\nDATA 1.3\n");
  await page.waitForFunction(() => document.querySelectorAll("#extrap-ranking tbody tr").length === 1 && !document.querySelector(".extrap-results.is-stale"), null, { timeout: 60_000 });
  assert.ok(page.workers().length > 0, "the ranking ran in workers");
  await page.waitForTimeout(300);
  assert.deepEqual(said.filter((t) => /deprecated/i.test(t)), [], "no deprecation warning");
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("edits in quick succession restart the ranking's workers without a page error", async () => {
  // Each edit ends the workers of the ranking under way and starts new ones; a message an
  // ended worker had already posted must reach no dropped handler ("closure invoked
  // recursively or after being dropped", seen once in a loaded CI run). The race needs the
  // timing: here 200 edits, some a few ms apart, failed one run in three before the mend.
  const { context, page, problems } = await open();
  await page.setInputFiles("#extrap-file", `${DATA}app.txt`);
  await page.waitForSelector("#extrap-ranking tbody tr");
  await page.evaluate(async () => {
    const box = document.getElementById("extrap_predict");
    for (let i = 0; i < 200; i++) {
      box.value = String(256 + (i % 40));
      box.dispatchEvent(new InputEvent("input", { bubbles: true }));
      await new Promise((r) => setTimeout(r, i % 4));
    }
  });
  // The last edit's ranking shown, current (not stale), and a moment for late messages.
  await page.waitForFunction(() => !document.getElementById("extrap-progress") && !document.querySelector(".extrap-results.is-stale"));
  await page.waitForTimeout(500);
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("2,000 regions rank in Web Workers: progress, Cancel, a new ranking on edit, the command's answer", async () => {
  const { context, page, problems } = await open();
  const file = join(await mkdtemp(join(tmpdir(), "sw-extrap-")), "big.txt");
  await writeFile(file, experiment(2000));
  // The page's thread: the longest gap between animation frames while the workers fit.
  await page.evaluate(() => {
    window.swGaps = { max: 0, since: performance.now() };
    let last = performance.now();
    const frame = (now) => { window.swGaps.max = Math.max(window.swGaps.max, now - last); last = now; requestAnimationFrame(frame); };
    requestAnimationFrame(frame);
  });
  await page.fill("#extrap_predict", "256, 1024");
  await page.setInputFiles("#extrap-file", file);
  // Over 200 ms: the progress and Cancel show; Cancel ends the ranking. The first ranking
  // (the workers' wasm loaded and compiled) is the one long enough to catch on every machine
  // seen: on an idle one, with the workers warm, a ranking of these 2,000 regions ends within
  // the 200 ms before progress shows. The progress re-renders its row many times a second, so
  // playwright's click (which waits for the button to hold still) may never land: it is
  // clicked in the page, as soon as it shows.
  await page.waitForSelector("#extrap-progress progress");
  await page.locator("#extrap-progress").scrollIntoViewIfNeeded().catch(() => {});
  await shot(page, "extrap-progress");
  const cancelled = await page.evaluate(() => { const b = document.querySelector("#extrap-progress button"); b?.click(); return Boolean(b); });
  assert.ok(cancelled, "a ranking under way to cancel");
  await page.waitForSelector("text=Ranking cancelled");
  assert.equal(await page.locator("#extrap-ranking").count(), 0, "nothing ranked");
  // Rank starts again: the page draws its frames while the workers fit (however long that
  // takes); then an edit, while it runs or after, gives the ranking of the new texts.
  const t0 = Date.now();
  await page.evaluate(() => { window.swGaps.max = 0; document.querySelector("#extrap-progress button").click(); });
  await page.waitForFunction(() => !document.getElementById("extrap-progress") && document.getElementById("extrap-ranking"), null, { timeout: 120_000 });
  const ms = Date.now() - t0;
  const gap = await page.evaluate(() => window.swGaps.max);
  console.log(`browser: longest frame gap on the page's thread while the workers fit: ${gap.toFixed(0)} ms`);
  // Fitting on the page's own thread would stop its frames for about the whole ranking; a
  // loaded machine may skip a frame for a few hundred ms now and then (the figure above is
  // the measurement; a test does not hold a time): it fails only on a freeze of half the run.
  assert.ok(gap < 250 || gap < 0.5 * ms, `the page froze for ${gap} ms of the ${ms} ms the workers fitted`);
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  console.log(`browser: 2,000 regions × 6 counts ranked in Web Workers in ${ms} ms, ${Math.round(2000 / ms * 1000)} regions per second (${Math.min(cores, 4)} workers, warm; Rank to table, wall clock)`);
  await page.fill("#extrap_predict", "512");
  // The ranking at 512, and no ranking under way.
  await page.waitForFunction(() => !document.getElementById("extrap-progress") && !document.querySelector(".extrap-results.is-stale")
    && /share at p = 512/.test(document.querySelector("#extrap-ranking th:nth-child(3)")?.textContent), null, { timeout: 120_000 });
  assert.equal(await page.locator("#extrap-progress").count(), 0);
  assert.match(await page.locator("#extrap-ranking th").nth(2).textContent(), /share at p = 512/);
  const rows = page.locator("#extrap-ranking tbody tr");
  // The 60 largest are listed (2,000 rows took the browser 400 ms to draw), every one on asking.
  assert.equal(await rows.count(), 60);
  assert.match(await page.locator("#extrap-tree-opened").textContent(), /^The 60 largest of 2000 regions at the last target are listed/);
  await page.click("#extrap-tree-all");
  assert.equal(await rows.count(), 2000);
  await page.click("#extrap-tree-all");
  assert.equal(await rows.count(), 60);
  // The command's ranking (every core natively; one thread's answer) is the page's.
  const v = cli([file, "--predict", "512"]);
  {
    const top = v.ranking[0].regions.slice(0, 5);
    for (let i = 0; i < top.length; i++) {
      const cells = await rows.nth(i).locator("td").allTextContents();
      assert.equal(cells[1], top[i].callpath, `rank ${i + 1}`);
      assert.ok(Math.abs(pct(cells[2]) - top[i].share) < 0.0006, `${cells[2]} vs ${top[i].share}`);
    }
    assert.match(await page.locator("#extrap-dominant").textContent(), new RegExp(`At p = 512: ${v.dominant[0].callpath} dominates`));
  }
  assert.deepEqual(problems.consoleErrors, []);
  assert.deepEqual(problems.foreignRequests, []);
  await context.close();
});

// Issue 44's call-tree examples on the page: an inclusive `main` over `main->compute` and
// `main->io`, and Extra-P's relearn_data.txt (regions nested by indentation, `main()` holding
// the rest, children that overlap). The page names the region the command names.
test("call trees: the page ranks by own time and names main->io and one of relearn's two large leaves, as the command does", async () => {
  const { context, page, problems } = await open();
  // relearn's Find target neurons and Create synapses measure within 8 % of each other at
  // p = 512: which leads at 2048 is the models' call, and the page names the command's.
  const cases = [
    [`${DATA}calltree.txt`, "256", /At [a-z]+ = 256: (main->io) dominates with (7[0-9](\.[0-9]+)?) %/],
    [new URL("../data/extrap-upstream/text/mpa/relearn_data.txt", import.meta.url).pathname, "2048", /: (Find target neurons \(w\/ RMA\)|Create synapses \(w\/ Alltoall\)) dominates with/],
  ];
  for (const [file, at, want] of cases) {
    await page.fill("#extrap_predict", at);
    await page.setInputFiles("#extrap-file", file);
    await page.waitForFunction((src) => new RegExp(src).test(document.getElementById("extrap-dominant")?.textContent ?? ""), want.source, { timeout: 60_000 });
    const named = want.exec(await page.locator("#extrap-dominant").textContent())[1];
    const v = cli([file, "--predict", at]);
    assert.equal(v.dominant.at(-1).callpath, named);
  }
  // relearn: indentation read as nesting, and main() left out of the shares, both said.
  const warnings = await page.locator(".warnings").allTextContents();
  assert.ok(warnings.some((w) => /indent/i.test(w)), warnings.join(" | "));
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});
