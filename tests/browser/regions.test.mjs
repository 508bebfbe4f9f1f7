// The two-regions page in a real browser: the LinPack/bwGRiD defaults, moving the bandwidth
// (typed and dragged) changes the verdict, errors show under their field with the last good
// result kept, exports, and the time to redraw a 1,000 × 4 sweep when the bandwidth moves.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { serveDist, launch, freshPage, ready, shot } from "./harness.mjs";

let server, browser;
before(async () => { server = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

async function open() {
  const p = await freshPage(browser, server.origin);
  // An old index.html link goes on to the page's own entry.
  await p.page.goto(`${server.base}#/regions`);
  await ready(p.page);
  await p.page.waitForSelector("#verdict-3");
  assert.ok(p.page.url().endsWith("/regions.html#/regions"), p.page.url());
  return p;
}

const verdict = (page, k) => page.locator(`#verdict-${k}`);

test("moving the bandwidth between the regions changes the verdict", async () => {
  const { context, page, problems } = await open();
  assert.equal(await page.locator("#cases tbody tr").count(), 4, "one row per problem size");
  assert.match(await page.locator("#cases tbody tr").nth(3).textContent(), /N = 40000/);
  // bwGRiD 1's 1 GB/s: far from 90 % of one region at 256 cores per region.
  const v = verdict(page, 3);
  assert.match(await v.getAttribute("class"), /unmet/);
  const text = await v.textContent();
  assert.match(text, /The current 1 GB\/s falls short/);
  const need = Number(/Needs at least ([0-9.e+]+) GB\/s/.exec(text)[1]);
  assert.ok(need > 1, `required ${need} GB/s`);
  await shot(page, "regions-default");

  // Type a bandwidth just above the requirement: met.
  await page.fill("#region_bw", String(+(need * 1.05).toPrecision(4)));
  await page.waitForFunction(() => /\bmet\b/.test(document.getElementById("verdict-3").className));
  assert.match(await v.textContent(), /meets it/);

  // Drag the slider to its low end (0.1 GB/s): the field follows and the verdict flips back.
  await page.locator("#bw-slider").fill("0");
  await page.waitForFunction(() => document.getElementById("region_bw").value === "0.1");
  assert.match(await v.getAttribute("class"), /unmet/);
  assert.match(await v.textContent(), /The current 0\.1 GB\/s falls short/);
  // bwGRiD 2's planned link as the system: the planned 15–45 GB/s is judged in the verdict.
  await page.click("text=System: bwGRiD 2 (planned, 45 GB/s)");
  await page.waitForFunction(() => document.getElementById("region_bw").value === "45");
  assert.match(await verdict(page, 0).textContent(), /The planned 15–45 GB\/s/);
  await shot(page, "regions-bwgrid2");
  assert.deepEqual(problems.consoleErrors, []);
  assert.deepEqual(problems.foreignRequests, []);
  await context.close();
});

test("errors name field and column, and the last good result stays, marked stale", async () => {
  const { context, page, problems } = await open();
  // An error straight after the page's example shows no example answer (issue 63).
  await page.fill("#sizes", "10000 2O000");
  const err = page.locator("#sizes + .field-error");
  await err.waitFor();
  assert.match(await err.textContent(), /line 1, column 7: expected a number, found "2O000"/);
  assert.equal(await page.locator(".stale").count(), 0, "no stale example");
  // The user's own sizes, then an error: their last good result stays, marked stale.
  await page.fill("#sizes", "1000, 4000, 16000, 64000");
  await page.waitForFunction(() => document.querySelectorAll("#cases tbody tr").length === 4);
  await page.fill("#sizes", "10000 2O000");
  await err.waitFor();
  assert.ok(await page.locator(".stale").isVisible(), "stale note shown");
  assert.equal(await page.locator("#cases tbody tr").count(), 4, "last good result kept");
  await page.fill("#ops", "2/3*N^");
  assert.match(await page.locator("#ops + .field-error").textContent(), /column 7/);
  await page.fill("#ops", "2/3*N^3");
  await page.fill("#sizes", "40000");
  await page.waitForFunction(() => document.querySelectorAll("#cases tbody tr").length === 1);
  assert.equal(await page.locator(".stale").count(), 0);
  // α = 0: no optimum, said in words.
  await page.fill("#alpha", "0");
  await page.waitForSelector("text=no optimum");
  // A bandwidth in the wrong unit is warned about, not refused.
  await page.fill("#node_bw", "1500");
  await page.waitForSelector("#warnings >> text=MB/s");
  await shot(page, "regions-errors");
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("balance form, the overlapping curves and exports", async () => {
  const { context, page } = await open();
  await page.selectOption("#form", "balance");
  await page.fill("#x_prime", "196.08");
  await page.fill("#z", "1.5");
  await page.fill("#z_prime", "10");
  await page.fill("#zp_bw", "1");
  await page.fill("#region_bw", "1");
  await page.waitForFunction(() => document.querySelectorAll("#cases tbody tr").length === 1);
  // n* = √(x'z·z'/(2α)) = √(294.12·10/0.1) = 171.5 by default; the slides' literal x': 140.0.
  assert.match(await page.locator("#cases tbody tr").textContent(), /171\.5/);
  await page.selectOption("#two_region_x", "slides");
  await page.waitForFunction(() => /140/.test(document.querySelector("#cases tbody tr").textContent));
  await page.click("#overlap");
  await page.waitForSelector("#chart-speedup-overlapping");
  const [csv] = await Promise.all([page.waitForEvent("download"), page.click("#csv-sweep")]);
  const lines = (await readFile(await csv.path(), "utf8")).trim().split("\n");
  assert.equal(lines[0], "case,bandwidth_gb_s,z_prime,sp2_at_req_n,sp2_max,n_star");
  assert.equal(lines.length, 1 + 1000, "one row per bandwidth");
  const [svg] = await Promise.all([page.waitForEvent("download"), page.click("figure:has(#chart-nstar) >> text=SVG")]);
  assert.match(await readFile(await svg.path(), "utf8"), /<svg[\s\S]*Optimal region size/);
  const [png] = await Promise.all([page.waitForEvent("download"), page.click("figure:has(#chart-sweep) >> text=PNG")]);
  assert.equal(png.suggestedFilename(), "chart-sweep.png");
  await shot(page, "regions-balance");
  await context.close();
});

/** Times one input event to an updated page: the event, the model, yew's render and the charts'
 * effects (done by the next task), then style and layout (forced by reading offsetHeight).
 * Paint is not included. Returns the median of rounds 2 and 3 (round 1 warms up). */
async function timeEdits(page, id, values, watch) {
  const times = [];
  for (let round = 0; round < 3; round++) {
    for (const value of values) {
      const r = await page.evaluate(async ([id, value, watch]) => {
        const el = document.getElementById(id);
        const before = document.getElementById(watch).textContent;
        const start = performance.now();
        el.value = String(value);
        el.dispatchEvent(new InputEvent("input", { bubbles: true }));
        await new Promise((resolve) => setTimeout(resolve, 0));
        void document.body.offsetHeight;
        return { ms: performance.now() - start, changed: document.getElementById(watch).textContent !== before };
      }, [id, value, watch]);
      assert.ok(r.changed, `${id} = ${value} changed #${watch}`);
      if (round > 0) times.push(r.ms);
    }
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  return `median ${median.toFixed(1)} ms of ${times.length} (min ${times[0].toFixed(1)}, max ${times[times.length - 1].toFixed(1)})`;
}

test("speed in the browser: moving the bandwidth, and redrawing a 1,000 × 4 sweep", async () => {
  const { context, page } = await open();
  // The defaults: four problem sizes, 1,000 bandwidths. Moving the slider re-evaluates the
  // page (curves, 4,000 sweep points, verdicts), redraws the speed-up chart and moves the
  // marker over the two sweep charts.
  const slider = await timeEdits(page, "bw-slider", [100, 200, 300, 400, 500, 600, 700, 800, 900], "verdict-0");
  // A new sweep range recomputes the sweep and redraws both sweep charts in full (4 × 1,000
  // bandwidths, Sp2 at n and Sp2_max on one, n* on the other).
  const sweep = await timeEdits(page, "sweep_max", [90, 100, 110, 120, 95, 105, 115, 125, 99], "csv-sweep-range");
  console.log(`browser: bandwidth slider to re-evaluated page, redrawn speed-up chart and moved markers: ${slider}`);
  console.log(`browser: new sweep range to re-evaluated page and both 4 × 1,000 sweep charts redrawn: ${sweep}`);
  await context.close();
});
