// The multi-cluster planner as a person uses it: paste the worked example, read 1670 s,
// break a table and see the named error with the last result kept (stale), load the White
// Rose preset, switch a fabric and see the ranking change; share and embed this page.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { serveDist, launch, freshPage, ready, shot } from "./harness.mjs";

let server, browser;
before(async () => { server = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const SEQ = "work (MB)\ttime (s)\n2048\t1500\n1024\t740\n";
const PAR = "np,work_mb,time_s\n4,2048,1580\n4,1024,800\n8,2048,1610\n8,1024,825\n";

/** The predicted time at the target np (the cell also carries its 90 % range). */
async function targetTime(page) {
  return (await page.locator("#target-table td.time").first().textContent()).trim().split(" ")[0];
}

/** (time, low, high) of a cell written "t (low–high)". */
function withRange(text) {
  const m = /^([0-9.e+-]+) \(([0-9.e+-]+)–([0-9.e+-]+)\)$/.exec(text.trim());
  assert.ok(m, `a time with its range: ${text}`);
  return m.slice(1, 4).map(Number);
}

test("paste the worked example and read T(64) = 1670 s; bad input is named and the result goes stale", async () => {
  const { context, page, problems } = await freshPage(browser, server.origin);
  await page.goto(`${server.base}#/multigrid`);
  await ready(page);
  // Start from empty tables, as a new user pasting their own runs would.
  await page.fill("#cal1_seq", "");
  await page.fill("#cal1_par", "");
  await page.fill("#cal1_seq", SEQ);
  await page.fill("#cal1_par", PAR);
  await page.selectOption("#cal1_cluster", "wrg-b");
  await page.selectOption("#cal1_fabric", "Myrinet");
  await page.fill("#grid_n", "65536");
  // Bytes per point derived from a run: 1024 rows × 65536 columns in 2048 MB.
  await page.fill("#bytes_per_point", "");
  await page.click("summary:has-text('Derive bytes per grid point')");
  await page.fill("#derive_rows", "1024");
  await page.fill("#derive_cols", "65536");
  await page.fill("#derive_mb", "2048");
  await page.click("#use-derived");
  assert.equal(await page.inputValue("#bytes_per_point"), "32");
  await page.fill("#np", "64");
  assert.equal(await targetTime(page), "1670");
  // Issue 16: the prediction at np = 64 (8× the largest calibrated np) has a 90 % range
  // around it, narrower than at np = 256 (32×), and the page says where the range comes from.
  const [t64, lo64, hi64] = withRange(await page.locator("#target-table td.time").first().textContent());
  assert.ok(lo64 < t64 && t64 < hi64, `${lo64} < ${t64} < ${hi64}`);
  await page.fill("#np", "256");
  await page.waitForFunction(() => {
    const t = document.querySelector("#target-table td.time")?.textContent.trim().split(" ")[0];
    return t !== undefined && t !== "1670";
  });
  const [t256, lo256, hi256] = withRange(await page.locator("#target-table td.time").first().textContent());
  assert.ok(hi256 / lo256 > hi64 / lo64, `the range grows with np: ${hi64 / lo64} vs ${hi256 / lo256}`);
  assert.ok(lo256 < t256 && t256 < hi256);
  assert.match(await page.locator("#target-table th[title]").getAttribute("title"), /90 % range.*VALIDATION\.md/);
  await page.fill("#np", "64");
  assert.equal(await targetTime(page), "1670");
  assert.equal(await page.locator("#fit-1 .d").textContent(), "20");
  assert.equal(await page.locator("#fit-1 .c").textContent(), "0");
  await shot(page, "multigrid-worked-example");

  // A non-number in row 3 of the parallel runs: the error names line and column, the fit and
  // the prediction stay on screen marked stale.
  await page.fill("#cal1_par", PAR.replace("4,1024,800", "4,1024,eight hundred"));
  const err = await page.locator("#cal1_par-error").textContent();
  // Column 8: the character where "eight hundred" starts (issue 45, item 21), not the third cell.
  assert.match(err, /line 3, column 8: expected a number for time \(s\), found "eight hundred"/);
  assert.equal(await targetTime(page), "1670", "the last good result is kept");
  assert.ok(await page.locator(".stale").first().isVisible(), "marked stale");
  // A parallel run faster than its sequential part.
  await page.fill("#cal1_par", PAR.replace("4,1024,800", "4,1024,700"));
  assert.match(await page.locator("#cal1_par-error").textContent(), /Tcomm|faster/i);
  // np < 2, a single work size.
  await page.fill("#cal1_par", "np work time\n1 2048 1580\n8 2048 1610\n");
  assert.match(await page.locator("#cal1_par-error").textContent(), /np/);
  await page.fill("#cal1_seq", "2048 1500\n");
  assert.match(await page.locator("#cal1_seq-error").textContent(), /work size/);
  await shot(page, "multigrid-errors");
  const text = await page.locator("main").textContent();
  assert.ok(!/NaN|inf(inity)?\b/i.test(text.replace(/infeasible/gi, "")), "no NaN or infinity on screen");
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("a whole number too large for the planner is said to be too large", async () => {
  // A newcomer's finding (issue 63): 99999999999 was "expected a whole number".
  const { context, page, problems } = await freshPage(browser, server.origin);
  await page.goto(`${server.base}#/multigrid`);
  await ready(page);
  await page.fill("#free_a", "99999999999");
  const error = page.locator(".field:has(#free_a) .field-error");
  await error.waitFor();
  assert.equal((await error.textContent()).trim(), "free processes on A: 99999999999 is too large: at most 4294967295");
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("White Rose preset: switching a calibration's fabric changes the ranking", async () => {
  const { context, page, problems } = await freshPage(browser, server.origin);
  await page.goto(`${server.base}#/multigrid`);
  await ready(page);
  await page.click("text=Load: White Rose Grid A and B");
  await page.waitForSelector("#ranking tbody tr");
  const before = await page.locator("#ranking tbody").textContent();
  // Each ranked option's time carries its 90 % range (issue 16).
  const [t, lo, hi] = withRange(await page.locator("#ranking tbody tr").first().locator("td").nth(3).textContent());
  assert.ok(lo < t && t < hi, `${lo} < ${t} < ${hi}`);
  assert.ok(await page.locator("#split-result").isVisible(), "a split over two clusters is shown");
  assert.ok(await page.locator("#resolution").isVisible(), "scenario 2 is shown");
  // Every option on A over Myrinet disappears when that calibration is relabelled.
  const labels = await page.$$eval("select[id$=_fabric]", (els) => els.map((e) => [e.id, e.value]));
  const clusters = await page.$$eval("select[id$=_cluster]", (els) => els.map((e) => e.value));
  const idx = labels.findIndex(([id, v], k) => v === "Myrinet" && clusters[k] === "wrg-a" && id.startsWith("cal"));
  assert.ok(idx >= 0, "the preset calibrates A over Myrinet");
  await page.selectOption(`#${labels[idx][0]}`, "Fast Ethernet");
  const after = await page.locator("#ranking tbody").textContent();
  assert.notEqual(after, before, "the ranking changed");
  await shot(page, "multigrid-white-rose");
  // Without a second cluster there is no split to show, not a stale one.
  await page.selectOption("#pair_b", "");
  assert.equal(await page.locator("#split-result").count(), 0, "no split without cluster B");
  assert.equal(await page.locator(".stale").count(), 0, "nothing is stale");
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("adding a calibration and removing one: the later ones move down, their texts with them", async () => {
  const { context, page, problems } = await freshPage(browser, server.origin);
  await page.goto(`${server.base}#/multigrid`);
  await ready(page);
  await page.click("text=Load: White Rose Grid A and B");
  const cards = page.locator("article.calibration");
  const n = await cards.count();
  assert.ok(n >= 2, `the preset has calibrations (${n})`);
  await page.click("#add-calibration");
  assert.equal(await cards.count(), n + 1, "one more card");
  const last = n + 1;
  assert.match(await page.inputValue(`#cal${last}_seq`), /^work \(MB\)\ttime \(s\)/, "the new card starts with empty tables and their headers");
  await page.fill(`#cal${last}_seq`, "work (MB)\ttime (s)\n1024\t700\n");
  const second = await page.inputValue("#cal3_seq");
  // Remove calibration 2: 3 becomes 2, and the new last one becomes n.
  await page.locator("#calibration-2 button.danger").click();
  assert.equal(await cards.count(), n, "one card fewer");
  assert.equal(await page.inputValue("#cal2_seq"), second, "calibration 3 moved down to 2");
  assert.equal(await page.inputValue(`#cal${n}_seq`), "work (MB)\ttime (s)\n1024\t700\n", "what was typed moved with its card");
  assert.equal(await page.locator(`#calibration-${last}`).count(), 0);
  await shot(page, "multigrid-calibration-removed");
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("autosave, share link and embed mode on the planner page", async () => {
  const first = await freshPage(browser, server.origin);
  await first.page.goto(`${server.base}#/multigrid`);
  await ready(first.page);
  await first.page.fill("#np", "128");
  await first.page.reload();
  await ready(first.page);
  assert.equal(await first.page.inputValue("#np"), "128", "autosave survives a reload");
  await first.page.click("summary:has-text('Share & embed')");
  await first.page.waitForSelector("#share-link");
  const link = await first.page.inputValue("#share-link");
  const snippet = await first.page.inputValue("#embed-snippet");
  assert.ok(link.startsWith(server.base + "multigrid.html?s="), link);
  assert.match(snippet, /<iframe src="[^"]*embed=1&amp;s=/);
  await first.context.close();

  // A new browser profile opening the link sees the same inputs.
  const second = await freshPage(browser, server.origin);
  await second.page.goto(link);
  await ready(second.page);
  assert.equal(await second.page.inputValue("#np"), "128", "the share link restores the inputs");
  assert.ok(!second.page.url().includes("s="), "the s= parameter is dropped after loading");
  // A damaged link says so and keeps the page working.
  await second.page.goto(`${server.base}?s=AAAA#/multigrid`);
  await ready(second.page);
  assert.match(await second.page.locator(".notice").first().textContent(), /share link.*damaged/);
  assert.equal(await second.page.inputValue("#np"), "128");
  // Embed mode: the calculator without header, navigation or footer.
  await second.page.goto(`${server.base}?embed=1#/multigrid`);
  await ready(second.page);
  assert.equal(await second.page.locator("header.site-header").count(), 0);
  assert.equal(await second.page.locator("footer.site-footer").count(), 0);
  assert.ok(await second.page.locator("#target-table").isVisible());
  await shot(second.page, "multigrid-embed");
  assert.deepEqual(second.problems.consoleErrors, []);
  assert.deepEqual(second.problems.foreignRequests, []);
  await second.context.close();
});

// (The planner alone is timed natively, tests/bench_planner.rs: its page no longer carries a
// benchmark export, which cost every reader of the page about 1 KB.)
test("speed in the browser: one keystroke to a redrawn page", async () => {
  const { context, page } = await freshPage(browser, server.origin);
  await page.goto(`${server.base}#/multigrid`);
  await ready(page);
  await page.click("text=Load: White Rose Grid A and B");
  await page.waitForSelector("#ranking tbody tr");
  // Type into N and time each keystroke's work: the event, the model, yew's render and the
  // charts' effects (all done by the next task), then the browser's style and layout of the
  // result (forced by reading offsetHeight). Paint is not included. Warm up first.
  const values = ["32768", "65536", "16384", "65536", "8192", "65536", "4096"];
  const times = [];
  for (let round = 0; round < 3; round++) {
    for (const n of values) {
      const r = await page.evaluate(async (value) => {
        const el = document.getElementById("grid_n");
        const before = document.getElementById("ranking").textContent;
        const start = performance.now();
        el.value = value;
        el.dispatchEvent(new InputEvent("input", { bubbles: true }));
        await new Promise((resolve) => setTimeout(resolve, 0));
        void document.body.offsetHeight;
        const ms = performance.now() - start;
        return { ms, changed: document.getElementById("ranking").textContent !== before };
      }, n);
      assert.ok(r.changed, `typing N = ${n} changed the ranking`);
      if (round > 0) times.push(r.ms);
    }
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(`browser: planner page keystroke to updated tables, charts and layout (White Rose preset) median ${median.toFixed(1)} ms of ${times.length} (min ${times[0].toFixed(1)}, max ${times[times.length - 1].toFixed(1)})`);
  await context.close();
});
