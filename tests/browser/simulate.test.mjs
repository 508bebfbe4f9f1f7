// The virtual parallel machine page in a real browser: run Jacobi in the Web Worker and read
// the speed-up from the page, cancel a long run, a deadlock shown as a result, a syntax error
// named at line and column, the same results from one worker as from several, and the Jacobi
// study timed in one worker and as the page runs it (one worker per core).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { deflateRawSync } from "node:zlib";
import { serveDist, launch, freshPage, ready, shot, command } from "./harness.mjs";

// Issue 47's all-to-all job: 18 process counts near 1,000.
const ALL_TO_ALL_COUNTS = Array.from({ length: 18 }, (_, i) => 983 + i).join(" ");

let server, browser;
before(async () => { server = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

// `cores`: what the page is told navigator.hardwareConcurrency is (it starts one worker per core).
// Every page counts the Web Workers it starts (`window.workersStarted`). `slowFirst`: the
// first worker waits 1.5 s before it loads the engine (as on a busy machine), so the others
// finish their shares while it cannot listen yet.
async function open(cores, { slowFirst = false } = {}) {
  const p = await freshPage(browser, server.origin);
  if (cores) await p.page.addInitScript((n) => Object.defineProperty(Navigator.prototype, "hardwareConcurrency", { get: () => n }), cores);
  await p.page.addInitScript((slow) => {
    window.workersStarted = 0;
    const Base = window.Worker;
    window.Worker = class extends Base {
      constructor(url, ...rest) {
        if (slow && window.workersStarted === 0) {
          // What the loader shim does, with absolute addresses, after a pause.
          const base = new URL(".", location.href).href;
          const code = `setTimeout(() => { importScripts("${base}sw-simulate-worker.js"); wasm_bindgen("${base}sw-simulate-worker_bg.wasm"); }, 1500);`;
          url = URL.createObjectURL(new Blob([code], { type: "text/javascript" }));
        }
        super(url, ...rest);
        window.workersStarted += 1;
      }
    };
  }, slowFirst);
  await p.page.goto(`${server.base}simulate.html`);
  await ready(p.page);
  await p.page.waitForSelector("#run");
  return p;
}

test("run Jacobi in the worker and read the speed-up from the page", async () => {
  const { context, page, problems } = await open();
  // A small study so the test is quick: 2, 4 and 8 processes, 100 iterations, 10 replications.
  await page.fill("#numprocs", "2 4 8");
  await page.fill("#params", "xsize = 256\niterations = 100");
  await page.fill("#replications", "10");
  // The pointer reaching Run starts the workers; the click then uses them.
  assert.equal(await page.evaluate(() => window.workersStarted), 0, "no worker before the user reaches for Run");
  await page.hover("#run");
  await page.waitForFunction(() => window.workersStarted > 0);
  const warmed = await page.evaluate(() => window.workersStarted);
  await page.click("#run");
  await page.waitForSelector("#sim-results tbody tr", { timeout: 60000 });
  assert.equal(await page.evaluate(() => window.workersStarted), warmed);
  const rows = await page.locator("#sim-results tbody tr").allTextContents();
  assert.equal(rows.length, 3);
  const cells = await page.locator("#sim-results tbody tr").nth(2).locator("td").allTextContents();
  assert.equal(cells[0], "8");
  const speedup = Number(cells[5]);
  console.log(`browser: Jacobi (xsize 256, 100 iterations, 10 replications) speed-up on 8 processes ${speedup}; ${await page.locator("#sim-status").textContent()}`);
  assert.ok(speedup > 1 && speedup < 8, `speed-up ${speedup}`);
  assert.match(await page.locator("#sim-summary").textContent(), /Best speed-up/);
  // The Figure 6 comparison is on the chart; the per-process breakdown and a timeline exist.
  await page.waitForSelector("#chart-sim-speedup");
  await page.waitForSelector("#chart-sim-timeline");
  // A few processes: the per-process table is open.
  assert.equal(await page.locator("details:has(#per-process)").getAttribute("open"), "");
  assert.equal(await page.locator("#per-process tbody tr").count(), 2);
  await page.selectOption("#detail", { value: "2" });
  await page.waitForFunction(() => document.querySelectorAll("#per-process tbody tr").length === 8);
  // Changing an input marks the results as out of date.
  await page.fill("#replications", "11");
  await page.waitForSelector("#sim-status >> text=The inputs have changed");
  await shot(page, "simulate-jacobi");
  assert.deepEqual(problems.consoleErrors, []);
  assert.deepEqual(problems.foreignRequests, []);
  await context.close();
});

test("a cluster and fabric from the Clusters page become the machine", async () => {
  const { context, page } = await open();
  await page.selectOption("#from-catalog", { label: "bwGRiD Mannheim — InfiniBand 20 Gbit/s" });
  await page.waitForSelector("#latency_us");
  assert.equal(await page.inputValue("#machine"), "fitted");
  assert.equal(await page.inputValue("#latency_us"), "2");
  assert.equal(await page.inputValue("#procs_per_node"), "8");
  await context.close();
});

test("a long run shows progress and can be cancelled; the page stays responsive", async () => {
  const { context, page } = await open();
  await page.fill("#numprocs", "2 4 8 16 32 64");
  // 100 replications: about 1.2e9 of the 2e9 steps a job may take, counted at their costs
  // (200 would be refused before Run).
  await page.fill("#replications", "100");
  await page.click("#run");
  await page.waitForSelector("#sim-progress progress");
  // The main thread is free while the worker runs: typing still updates the page.
  await page.fill("#seed", "2x");
  await page.waitForSelector("#seed + .field-error");
  await page.fill("#seed", "2");
  await page.click("#cancel");
  await page.waitForSelector("#sim-status >> text=Cancelled");
  assert.equal(await page.locator("#sim-progress").count(), 0);
  // Cancelling ended the workers; the next run starts new ones and finishes.
  const before = await page.evaluate(() => window.workersStarted);
  await setJob(page, { numprocs: "2 4", params: "xsize = 256\niterations = 20", replications: "3" });
  const { rows } = await runOnPage(page);
  assert.equal(rows.length, 2);
  assert.ok(await page.evaluate(() => window.workersStarted) > before, "new workers after a cancel");
  await context.close();
});

test("a deadlock is a result, and a syntax error is named at line and column", async () => {
  const { context, page } = await open();
  // Both processes receive before they send: nobody ever sends.
  await page.fill("#skeleton", "Serial time = 1\nMessage type = MPI_Recv, from = 1 - procnum\nMessage type = MPI_Send, to = 1 - procnum\n");
  const problem = page.locator(".code-editor .field-error");
  await page.fill("#numprocs", "2");
  await page.fill("#replications", "1");
  await page.fill("#params", "");
  assert.equal(await problem.count(), 0);
  await page.click("#run");
  await page.waitForSelector("#deadlock", { timeout: 30000 });
  const text = await page.locator("#deadlock").textContent();
  assert.match(text, /Deadlock on 2 processes/);
  assert.match(text, /process 0 waits for .*from process 1.*line 2/);
  await shot(page, "simulate-deadlock");
  // A syntax error: the gutter marks the line and the message names line and column.
  await page.fill("#skeleton", "Loop 3 {\n  Serial time = 1\n  Loop {\n}\n");
  await problem.waitFor();
  assert.match(await problem.textContent(), /line \d+, column \d+/);
  assert.equal(await page.locator(".gutter .err-line").count(), 1);
  assert.ok(await page.locator("#run").isDisabled(), "no run with a broken skeleton");
  await shot(page, "simulate-syntax-error");
  await context.close();
});

test("speed in the browser: the Jacobi study in the worker", async () => {
  const { context, page } = await open();
  const ms = await page.evaluate(() => new Promise((resolve, reject) => {
    const w = new Worker("sw-simulate-worker_loader.js");
    w.onerror = (e) => reject(new Error(String(e.message)));
    w.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.ready) w.postMessage(JSON.stringify("bench"));
      if (m.bench_ms !== undefined) { w.terminate(); resolve(m.bench_ms); }
    };
  }));
  assert.ok(ms > 0, `ran: ${ms}`);
  console.log(`browser: Jacobi study (2–64 nodes × 1–2 processes per node, 1,000 iterations, 20 replications) in the worker: ${(ms / 1000).toFixed(2)} s`);
  await context.close();
});

/** Runs the page's current inputs and returns the results table's text and the status. */
async function runOnPage(page, { click = true } = {}) {
  if (click) await page.click("#run");
  // The inputs were changed since any earlier run, so its status said so: wait for this one's.
  await page.waitForFunction(() => {
    const s = document.querySelector("#sim-status")?.textContent ?? "";
    return s.startsWith("Finished in") && !s.includes("have changed");
  }, null, { timeout: 120000 });
  return {
    rows: await page.locator("#sim-results tbody tr").allTextContents(),
    status: await page.locator("#sim-status").textContent(),
  };
}

async function setJob(page, { numprocs, ppn, params, replications, compare }) {
  await page.fill("#numprocs", numprocs);
  await page.setChecked("#compare", compare !== false);
  if (ppn) await page.fill("#procs_per_node", ppn);
  await page.fill("#params", params);
  await page.fill("#replications", replications);
}

test("one worker or several: the same results; the workers serve the next run", async () => {
  const job = { numprocs: "2 4 6 8", params: "xsize = 256\niterations = 60", replications: "11" };
  const other = { numprocs: "4 6", params: "xsize = 512\niterations = 40", replications: "7" };
  const results = [];
  for (const cores of [1, 3]) {
    const { context, page, problems } = await open(cores);
    assert.equal(await page.evaluate(() => navigator.hardwareConcurrency), cores);
    await setJob(page, job);
    results.push((await runOnPage(page)).rows);
    // Another job, then the first again, on the same workers: nothing of one run leaks into
    // the next (worker 0 collects the others' shares per run).
    await setJob(page, other);
    const second = (await runOnPage(page)).rows;
    assert.equal(second.length, 2);
    await setJob(page, job);
    assert.deepEqual((await runOnPage(page)).rows, results[results.length - 1]);
    assert.equal(await page.evaluate(() => window.workersStarted), cores, "three runs, one set of workers");
    assert.deepEqual(problems.consoleErrors, []);
    await context.close();
  }
  assert.equal(results[0].length, 4);
  assert.deepEqual(results[1], results[0]);
});

test("a worker that loads late misses none of the others' results", async () => {
  const job = { numprocs: "2 4", params: "xsize = 256\niterations = 30", replications: "6" };
  const rows = [];
  for (const slowFirst of [false, true]) {
    const { context, page, problems } = await open(3, { slowFirst });
    await setJob(page, job);
    rows.push((await runOnPage(page)).rows);
    assert.deepEqual(problems.consoleErrors, []);
    await context.close();
  }
  assert.equal(rows[0].length, 2);
  assert.deepEqual(rows[1], rows[0]);
});

test("speed in the browser: the Jacobi study as the page runs it, one worker per core", async () => {
  // As a user runs the study: on one page, the list of node counts with 1 process per node,
  // then with 2. Each time is the page's own, from Run to results shown; the first includes
  // starting the workers (the pointer reaches Run only as it clicks), the second reuses them.
  const { context, page } = await open();
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  const times = [];
  for (const [ppn, numprocs] of [["1", "2 4 8 16 32 64"], ["2", "4 8 16 32 64 128"]]) {
    await setJob(page, { numprocs, ppn, params: "xsize = 256\niterations = 1000", replications: "20", compare: false });
    const { rows, status } = await runOnPage(page);
    assert.equal(rows.length, 6);
    times.push(Number(/Finished in ([0-9.]+) s/.exec(status)[1]));
  }
  await context.close();
  const total = times[0] + times[1];
  console.log(`browser: Jacobi study (2–64 nodes × 1–2 processes per node, 1,000 iterations, 20 replications) on one page, ${Math.min(cores, 4)} workers (${cores} cores), from Run to results shown: ${total.toFixed(2)} s (× 1: ${times[0].toFixed(2)} s, × 2: ${times[1].toFixed(2)} s)`);
});

test("speed in the browser: the all-to-all of 18 counts near 1,000 processes, its pace shown as it runs", async () => {
  // Issue 47's job: 17.7 M messages. The page shows the messages simulated a second while the
  // workers run and when they are done; the frames it draws meanwhile are timed (logged, not
  // asserted: a speed is measured, not tested).
  const { context, page, problems } = await open();
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  await page.fill("#skeleton", "Message type = MPI_Alltoall, size = 8");
  await setJob(page, { numprocs: ALL_TO_ALL_COUNTS, params: "", replications: "1", compare: false });
  await page.hover("#run");
  await page.waitForFunction(() => window.workersStarted > 0);
  await page.evaluate(() => {
    window.frameGaps = [];
    let last = performance.now();
    const tick = (t) => { window.frameGaps.push(t - last); last = t; if (!window.stopFrames) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  });
  await page.click("#run");
  const pace = page.locator("#sim-progress", { hasText: /; [0-9.]*[1-9][0-9.]* million messages a second$/ });
  await pace.waitFor({ timeout: 120000 });
  const shown = await pace.textContent();
  assert.ok(Number(/; ([0-9.]+) million/.exec(shown)[1]) > 0, shown);
  await shot(page, "simulate-all-to-all-running");
  const { rows, status } = await runOnPage(page, { click: false });
  const gaps = await page.evaluate(() => { window.stopFrames = true; return window.frameGaps.slice(1).sort((a, b) => a - b); });
  assert.equal(rows.length, 18);
  // Past 64 processes the per-process table is folded until asked for (laying out its rows held
  // a frame); every row is there for the CSV.
  const fold = page.locator("details:has(#per-process)");
  assert.equal(await fold.getAttribute("open"), null);
  assert.equal(await page.locator("#per-process tbody tr").count(), 983);
  await shot(page, "simulate-all-to-all-done");
  await fold.locator("summary").click();
  await page.locator("#per-process").waitFor({ state: "visible" });
  assert.match(await fold.locator("summary").textContent(), /983 processes/);
  const m = /Finished in ([0-9.]+) s; ([0-9.]+) million messages a second\./.exec(status);
  assert.ok(m, status);
  console.log(`browser: all-to-all, 983-1000 processes, 1 replication (17.7 M messages), ${Math.min(cores, 4)} workers (${cores} cores), from Run to results shown: ${m[1]} s, ${m[2]} million messages a second; while it ran "${shown}"; frames: ${gaps.length}, median gap ${gaps[Math.floor(gaps.length / 2)].toFixed(1)} ms, longest ${gaps.at(-1).toFixed(1)} ms`);
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("the page's workers, pausing every slice, answer as the command does", async () => {
  // The workers run in slices of 100,000 ops, so runs pause in the middle of an all-to-all; a
  // pause once released taken messages from the contention scoreboard early, and the page's
  // times differed from the command's. Means and ranges as the page shows them (4 digits).
  const skeleton = "Loop iterations = 30 {\n  Message type = MPI_Alltoall, size = 64\n  Serial time = 0.1\n}\n";
  const { context, page, problems } = await open();
  await page.fill("#skeleton", skeleton);
  await setJob(page, { numprocs: "50 100", params: "", replications: "2", compare: false });
  const { rows } = await runOnPage(page);
  const cells = await page.locator("#sim-results tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)));
  assert.equal(rows.length, 2);
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
  const answer = command(["simulate", "-"], JSON.stringify({ skeleton, numprocs: [50, 100], replications: 2 }));
  const four = (x) => Number(x.toPrecision(4));
  answer.results.forEach((r, i) => {
    assert.equal(Number(cells[i][0]), r.numprocs);
    assert.equal(Number(cells[i][2]), four(r.mean_s), `mean of ${r.numprocs}: the page ${cells[i][2]}, the command ${r.mean_s}`);
    assert.deepEqual(cells[i][3].split(" – ").map(Number), r.ci95_s.map(four), `range of ${r.numprocs}`);
  });
});

test("a share link of a few hundred characters carrying a 17,000-term chain: an error, and the page keeps working", async () => {
  // Such a link once overflowed the stack while the skeleton compiled, and the page stopped
  // responding (the preset buttons did nothing).
  const inputs = { skeleton: "Serial time = 1" + "+0".repeat(17000) };
  const s = deflateRawSync(Buffer.from(JSON.stringify({ v: 1, page: "simulate", inputs })), { level: 9 }).toString("base64url");
  console.log(`browser: the link's s= parameter has ${s.length} characters`);
  assert.ok(s.length < 400, `${s.length} characters`);
  const { context, page, problems } = await freshPage(browser, server.origin);
  await page.goto(`${server.base}simulate.html?s=${s}`);
  await ready(page);
  await page.waitForSelector(".code-editor.invalid .field-error");
  assert.match(await page.locator(".code-editor .field-error").textContent(), /line 1, column 526.*chained more than 256/s);
  assert.ok(await page.locator("#run").isDisabled());
  // The page still answers: a preset replaces the skeleton and a run works.
  await page.locator("button", { hasText: "Load: " }).first().click();
  await page.waitForFunction(() => !document.querySelector(".code-editor.invalid"));
  await page.fill("#numprocs", "2 4");
  await page.fill("#replications", "2");
  await page.click("#run");
  await page.waitForSelector("#sim-results tbody tr", { timeout: 60000 });
  await shot(page, "simulate-long-chain-link");
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("speed in the browser: a keystroke on an all-to-all job of 18 counts near 1,000 processes", async () => {
  // Checking such a job compiled every count (1.9 M ops each) on each keystroke: seconds and
  // gigabytes. Now a keystroke compiles at most a fixed budget; the run checks the rest.
  const { context, page, problems } = await open();
  await page.fill("#skeleton", "Message type = MPI_Alltoall, size = 8");
  await page.fill("#replications", "1");
  const times = [];
  for (let round = 0; round < 4; round++) {
    for (const value of [ALL_TO_ALL_COUNTS, ALL_TO_ALL_COUNTS + " ", ALL_TO_ALL_COUNTS]) {
      const ms = await page.evaluate(async (v) => {
        const el = document.getElementById("numprocs");
        const start = performance.now();
        el.value = v;
        el.dispatchEvent(new InputEvent("input", { bubbles: true }));
        await new Promise((resolve) => setTimeout(resolve, 0));
        void document.body.offsetHeight;
        return performance.now() - start;
      }, value);
      if (round > 0) times.push(ms);
    }
  }
  times.sort((a, b) => a - b);
  console.log(`browser: keystroke on the 18-count all-to-all job (check, render, layout) median ${times[Math.floor(times.length / 2)].toFixed(1)} ms of ${times.length} (min ${times[0].toFixed(1)}, max ${times[times.length - 1].toFixed(1)})`);
  assert.ok(!(await page.locator("#run").isDisabled()), "the job is valid");
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("an all-to-all past 1,000 processes runs, and one that would hold more than a run may is refused as it is typed (issue 47)", async () => {
  // 2,000 processes: 4 M messages, all posted before any is received (refused before: its
  // steps written out passed the programs' 2,000,000 ops). 3,024 would hold 512 MB.
  const { context, page, problems } = await open();
  await page.fill("#skeleton", "Message type = MPI_Alltoall, size = 8");
  await setJob(page, { numprocs: "3024", params: "", replications: "1", compare: false });
  const problem = page.locator(".field-error", { hasText: "all-to-all of 3024 processes" });
  await problem.waitFor();
  assert.match(await problem.textContent(), /holds about 512 MB of messages at once \(56 bytes × 3024²\), more than the 512 MB a run may hold/);
  assert.ok(await page.locator("#run").isDisabled(), "no run past the limit");
  await shot(page, "simulate-all-to-all-too-large");
  await page.fill("#numprocs", "2000");
  await problem.waitFor({ state: "detached" });
  const { rows, status } = await runOnPage(page);
  assert.equal(rows.length, 1);
  assert.match(rows[0], /^2000/);
  const m = /Finished in ([0-9.]+) s; ([0-9.]+) million messages a second\./.exec(status);
  assert.ok(m, status);
  console.log(`browser: all-to-all of 2,000 processes (4.0 M messages), 1 replication: ${m[1]} s, ${m[2]} million messages a second`);
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("the work a job takes is shown before Run; loop counts drawn as it runs are counted as they run", async () => {
  const { context, page } = await open(1);
  await page.fill("#skeleton", "Loop iterations = 10 {\n  Serial time = 1e-6\n}\n");
  await setJob(page, { numprocs: "1 2", params: "", replications: "3", compare: false });
  // 3 processes in all × (10 at the start + the loop + 10 × (a Serial time of 1 + 3 steps,
  // and the loop's end)), 3 replications (program::Costs).
  await page.waitForSelector("#sim-work >> text=about 549 steps");
  assert.match(await page.locator("#sim-work").textContent(), /of the limit of 2e9 a job may take\.$/);
  // A count drawn at run time: the estimate is a lower bound, and the run stops at the limit
  // of one run, saying so, with the page still working.
  await page.fill("#skeleton", "Loop iterations = floor(uniform(2e8, 2e8 + 1)) {\n  Serial time = 0\n}\n");
  await page.fill("#numprocs", "1");
  await page.fill("#replications", "1");
  await page.waitForSelector("#sim-work >> text=lower bound");
  await page.click("#run");
  await page.waitForSelector("#sim-status.field-error", { timeout: 60000 });
  assert.match(await page.locator("#sim-status").textContent(), /more than 100000000 steps/);
  assert.ok(!(await page.locator("#run").isDisabled()), "Run can be pressed again");
  await shot(page, "simulate-work-limit");
  await context.close();
});
