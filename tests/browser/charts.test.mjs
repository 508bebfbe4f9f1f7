// Charts in a real browser (issue 18): they take their container's width at 1280 and 375 px
// and at a device pixel ratio of 2, keep the legend off the plot, read out the nearest point
// on hover, follow the page's theme, list their data in a table, and on the simulation page
// draw the run's own histogram and timeline. Also the keystroke-to-redraw time of the
// speed-up page.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { serveDist, launch, freshPage, ready, shot } from "./harness.mjs";

let server, browser;
before(async () => { server = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

/** A page like freshPage's, at another size or pixel density (harness.mjs fixes 1280 × 900). */
async function pageAt(width, deviceScaleFactor = 1) {
  const p = await freshPage(browser, server.origin);
  await p.page.setViewportSize({ width, height: 900 });
  if (deviceScaleFactor === 1) return p;
  await p.context.close();
  const context = await browser.newContext({ viewport: { width, height: 900 }, deviceScaleFactor });
  const page = await context.newPage();
  const problems = { consoleErrors: [] };
  page.on("console", (m) => { if (m.type() === "error") problems.consoleErrors.push(m.text()); });
  page.on("pageerror", (e) => problems.consoleErrors.push(String(e)));
  return { context, page, problems };
}

/** Every chart's canvas size, container width, plot and legend boxes. */
async function geometry(page, id) {
  return page.evaluate((id) => {
    const c = document.getElementById(id);
    const box = (a) => (a ? a.split(" ").map(Number) : null);
    return {
      cssWidth: c.getBoundingClientRect().width,
      cssHeight: c.getBoundingClientRect().height,
      container: c.parentElement.clientWidth,
      width: c.width,
      height: c.height,
      plot: box(c.dataset.plot),
      legend: box(c.dataset.legend),
      dpr: window.devicePixelRatio,
    };
  }, id);
}

function checkGeometry(g, label) {
  assert.ok(Math.abs(g.cssWidth - g.container) <= 1, `${label}: canvas ${g.cssWidth} px in a ${g.container} px container`);
  // CSS widths may be fractional; the backing store is the whole pixels of the drawing.
  assert.ok(Math.abs(g.width - g.cssWidth * g.dpr) <= g.dpr, `${label}: backing store ${g.width} = CSS width ${g.cssWidth} × devicePixelRatio ${g.dpr}`);
  assert.ok(g.plot, `${label}: a plot was drawn`);
  if (g.legend) {
    // The legend's box ends above the plotting area: it cannot cover a curve.
    assert.ok(g.legend[3] <= g.plot[1], `${label}: legend ${g.legend} overlaps plot ${g.plot}`);
    assert.ok(g.legend[2] <= g.cssWidth, `${label}: legend inside the chart`);
  }
}

/** The rows of a chart's data table (opening its disclosure). */
async function tableOf(page, id) {
  const fig = page.locator(`figure:has(#${id})`);
  await fig.locator("details.chart-data summary").click();
  await fig.locator("table.chart-table tbody tr").first().waitFor();
  return {
    headers: await fig.locator("table.chart-table th").allTextContents(),
    rows: await fig.locator("table.chart-table tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent))),
    note: (await fig.locator("details.chart-data p").allTextContents()).join(" "),
  };
}

/** Moves the pointer to a fraction of the chart's plotting area and answers the read-out. */
async function hover(page, id, fx, fy) {
  await page.locator(`#${id}`).scrollIntoViewIfNeeded();
  const g = await geometry(page, id);
  const r = await page.locator(`#${id}`).boundingBox();
  const x = r.x + g.plot[0] + (g.plot[2] - g.plot[0]) * fx;
  const y = r.y + g.plot[1] + (g.plot[3] - g.plot[1]) * fy;
  await page.mouse.move(x, y);
  const out = page.locator(`figure:has(#${id}) .chart-readout`);
  await out.waitFor({ timeout: 5000 });
  return out.textContent();
}

const num = (s) => Number(String(s).replace(/[^0-9.e+-]/g, ""));

test("speed-up chart: container width at 1280 and 375 px, legend off the plot, redrawn on resize", async () => {
  const { context, page, problems } = await pageAt(1280);
  await page.goto(`${server.base}speedup.html`);
  await ready(page);
  await page.waitForSelector("#chart-speedup-fits[data-plot]");
  const wide = await geometry(page, "chart-speedup-fits");
  checkGeometry(wide, "1280 px");
  // Narrow the window: the chart follows its container.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.waitForFunction((w) => document.getElementById("chart-speedup-fits").width < w, wide.width);
  const narrow = await geometry(page, "chart-speedup-fits");
  checkGeometry(narrow, "375 px");
  assert.ok(narrow.cssWidth < 375, `fits the phone's width: ${narrow.cssWidth}`);
  await shot(page, "charts-speedup-375");
  console.log(`browser: speed-up chart ${wide.cssWidth}×${wide.cssHeight} px at 1280, ${narrow.cssWidth}×${narrow.cssHeight} px at 375; legend ${JSON.stringify(narrow.legend)} above plot ${JSON.stringify(narrow.plot)}`);
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("loaded at 375 px and at devicePixelRatio 2, charts are sharp and fit", async () => {
  for (const [width, dpr] of [[375, 1], [375, 2], [1280, 2]]) {
    const { context, page, problems } = await pageAt(width, dpr);
    await page.goto(`${server.base}regions.html`);
    await ready(page);
    await page.waitForSelector("#chart-speedup[data-plot]");
    for (const id of await page.locator("canvas.chart[data-plot]").evaluateAll((cs) => cs.map((c) => c.id))) {
      checkGeometry(await geometry(page, id), `${id} at ${width} px, dpr ${dpr}`);
    }
    if (dpr === 2 && width === 375) await shot(page, "charts-regions-375-dpr2");
    assert.deepEqual(problems.consoleErrors, []);
    await context.close();
  }
});

test("hovering reads out the nearest data point, the one in the data table", async () => {
  const { context, page, problems } = await pageAt(1280);
  await page.goto(`${server.base}speedup.html`);
  await ready(page);
  await page.waitForSelector("#chart-speedup-fits[data-plot]");
  const text = await hover(page, "chart-speedup-fits", 0.5, 0.5);
  // "label: processes = 32, speed-up = 20.23": x and y with the axes' names and units.
  const m = /^(?:(.*): )?(.+?) = ([0-9.e+-]+)(?: \S+)?, (.+?) = ([0-9.e+-]+)/.exec(text);
  assert.ok(m, `read-out "${text}"`);
  const [, label, , x, , y] = m;
  const t = await tableOf(page, "chart-speedup-fits");
  const row = t.rows.find((r) => r[0] === x);
  assert.ok(row, `x = ${x} is a row of the data table`);
  const col = t.headers.findIndex((h) => h.startsWith(`${label}:`));
  assert.ok(col > 0, `a column for ${label} in ${t.headers}`);
  assert.equal(row[col], y, `the table's ${label} at ${x}`);
  // The headers carry units: the x axis' and the y axis' labels.
  assert.ok(t.headers.every((h, k) => k === 0 || h.includes(": ")), `${t.headers}`);
  await shot(page, "charts-speedup-readout");
  // Leaving the chart hides the read-out.
  await page.mouse.move(2, 2);
  await page.locator("#chart-speedup-fits ~ .chart-readout").waitFor({ state: "detached" });
  console.log(`browser: hover read-out "${text}" matches the data table row ${row.join(" | ")}`);
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("charts follow the page's theme (data-theme and the scalewise-theme event)", async () => {
  const { context, page, problems } = await pageAt(1280);
  await page.goto(`${server.base}speedup.html`);
  await ready(page);
  await page.waitForSelector("#chart-speedup-fits[data-plot]");
  const corner = () => page.evaluate(() => [...document.getElementById("chart-speedup-fits").getContext("2d").getImageData(3, 3, 1, 1).data]);
  const light = await corner();
  assert.ok(light[0] > 200, `light background ${light}`);
  await page.evaluate(() => {
    document.documentElement.dataset.theme = "dark";
    window.dispatchEvent(new Event("scalewise-theme"));
  });
  await page.waitForFunction(() => document.getElementById("chart-speedup-fits").getContext("2d").getImageData(3, 3, 1, 1).data[0] < 60);
  await shot(page, "charts-speedup-dark");
  await page.evaluate(() => {
    document.documentElement.dataset.theme = "light";
    window.dispatchEvent(new Event("scalewise-theme"));
  });
  await page.waitForFunction(() => document.getElementById("chart-speedup-fits").getContext("2d").getImageData(3, 3, 1, 1).data[0] > 200);
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("every chart on every page has a data table under it", async () => {
  const pages = [["speedup.html", 1], ["regions.html", 3], ["multigrid.html", 1], ["comm.html", 1]];
  for (const [entry, least] of pages) {
    const { context, page, problems } = await pageAt(1280);
    await page.goto(`${server.base}${entry}`);
    await ready(page);
    await page.waitForSelector("canvas.chart[data-plot], canvas.chart");
    const figures = await page.locator("figure.chart-figure").count();
    const tables = await page.locator("figure.chart-figure > details.chart-data > summary", { hasText: "Data table" }).count();
    assert.ok(figures >= least, `${entry}: ${figures} charts`);
    assert.equal(tables, figures, `${entry}: a data table under each of ${figures} charts`);
    // Each opens to a table with a header row and data.
    for (let k = 0; k < figures; k++) {
      const fig = page.locator("figure.chart-figure").nth(k);
      await fig.locator("summary").click();
      await fig.locator("table.chart-table tbody tr").first().waitFor({ timeout: 5000 });
    }
    assert.deepEqual(problems.consoleErrors, [], entry);
    await context.close();
  }
});

test("simulation: the histogram and the timeline are the run's own data, and the timeline zooms", async () => {
  const { context, page, problems } = await pageAt(1280);
  await page.goto(`${server.base}simulate.html`);
  await ready(page);
  await page.waitForSelector("#run");
  await page.fill("#numprocs", "2 4");
  await page.fill("#params", "xsize = 256\niterations = 50");
  await page.fill("#replications", "40");
  await page.hover("#run");
  await page.click("#run");
  await page.waitForSelector("#sim-results tbody tr", { timeout: 60000 });
  await page.waitForSelector("#chart-sim-times[data-plot]");
  const mean2 = (await page.locator("#sim-results tbody tr").first().locator("td").allTextContents())[2];

  // Histogram of the 2-process runs: bins count all 40 replications; the mean drawn is the
  // results table's.
  const h = await tableOf(page, "chart-sim-times");
  assert.deepEqual(h.headers.slice(0, 2), ["run time from (s)", "run time to (s)"]);
  assert.equal(h.rows.reduce((s, r) => s + num(r[2]), 0), 40, "every replication in a bin");
  assert.match(h.note, new RegExp(`mean ${mean2.replace(".", "\\.")} s`), `marked mean is the table's ${mean2}`);
  assert.match(h.note, /middle 95 % of the runs/);
  const bar = await hover(page, "chart-sim-times", 0.5, 0.97);
  assert.match(bar, /^run time [0-9.e-]+–[0-9.e-]+ s: [0-9]+ replications$/);
  const [lo, hi, count] = /run time ([0-9.e-]+)–([0-9.e-]+) s: ([0-9]+)/.exec(bar).slice(1);
  assert.ok(h.rows.some((r) => r[0] === lo && r[1] === hi && r[2] === count), `bin ${lo}–${hi} (${count}) is a table row`);

  // The timeline: spans of the 2 processes of the first replication; its end is a run time
  // within the histogram's range.
  await page.waitForSelector("#chart-sim-timeline[data-plot]");
  const t = await tableOf(page, "chart-sim-timeline");
  assert.deepEqual(t.headers, ["process", "activity", "start (s)", "end (s)", "duration (s)"]);
  assert.ok(t.rows.length > 10, `${t.rows.length} spans`);
  assert.deepEqual([...new Set(t.rows.map((r) => r[0]))].sort(), ["process 0", "process 1"]);
  assert.deepEqual([...new Set(t.rows.map((r) => r[1]))].sort(), ["computing", "sending", "waiting"].filter((a) => t.rows.some((r) => r[1] === a)));
  const end = Math.max(...t.rows.map((r) => num(r[3])));
  const [first, last] = [num(h.rows[0][0]), num(h.rows[h.rows.length - 1][1])];
  assert.ok(end >= first * 0.999 && end <= last * 1.001, `replication ends at ${end}, within ${first}–${last}`);
  const span = await hover(page, "chart-sim-timeline", 0.3, 0.25);
  assert.match(span, /^process 0: (computing|sending|waiting) [0-9.e-]+–[0-9.e-]+ s/);
  await shot(page, "charts-simulate");

  // Zoom to the first tenth: the title says so and the table keeps only the spans there.
  await page.evaluate(() => {
    const el = document.getElementById("timeline-to");
    el.value = "100";
    el.dispatchEvent(new InputEvent("input", { bubbles: true }));
  });
  await page.waitForFunction(() => /zoomed$/.test(document.getElementById("chart-sim-timeline").getAttribute("aria-label")));
  const z = await page.locator("figure:has(#chart-sim-timeline) table.chart-table tbody tr")
    .evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.ok(z.length < t.rows.length && z.length > 0, `${z.length} of ${t.rows.length} spans in the window`);
  assert.ok(z.every((r) => num(r[2]) <= end / 10 * 1.001), "every listed span starts inside the window");
  await shot(page, "charts-simulate-zoomed");
  await page.click("text=Show the whole run");
  await page.waitForFunction(() => !/zoomed$/.test(document.getElementById("chart-sim-timeline").getAttribute("aria-label")));
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("speed in the browser: a keystroke on the speed-up page to redrawn chart and tables", async () => {
  const { context, page } = await pageAt(1280);
  await page.goto(`${server.base}speedup.html`);
  await ready(page);
  await page.waitForSelector("#chart-speedup-fits[data-plot]");
  // Alternate two data sets in the points field, as typing a digit would, and time the work
  // to the next task (model, render, chart effects) plus style and layout, as the planner's
  // test does. The first round warms up.
  const sets = ["2 2.00\n4 3.92\n8 7.25\n16 13.29\n32 20.23\n64 24.95\n", "2 2.00\n4 3.92\n8 7.25\n16 13.29\n32 20.23\n64 24.96\n"];
  const times = [];
  for (let round = 0; round < 4; round++) {
    for (const value of sets) {
      const r = await page.evaluate(async (value) => {
        const el = document.getElementById("points");
        const before = document.getElementById("fits").textContent;
        const start = performance.now();
        el.value = value;
        el.dispatchEvent(new InputEvent("input", { bubbles: true }));
        await new Promise((resolve) => setTimeout(resolve, 0));
        void document.body.offsetHeight;
        return { ms: performance.now() - start, changed: document.getElementById("fits").textContent !== before };
      }, value);
      if (round > 0) times.push(r.ms);
    }
  }
  times.sort((a, b) => a - b);
  console.log(`browser: speed-up page keystroke to updated fits, chart and layout median ${times[Math.floor(times.length / 2)].toFixed(1)} ms of ${times.length} (min ${times[0].toFixed(1)}, max ${times[times.length - 1].toFixed(1)})`);
  await context.close();
});
