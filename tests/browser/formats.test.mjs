// Formats of other tools in a real browser: a SimGrid calibration CSV made into a cluster's
// message times on the Clusters page and run on the simulation page. (The exports for
// LogGOPSim, SimGrid, SST/macro and Open MPI are the command's `--export`, and raw
// osu_bcast/IMB Bcast output is read by model::comm::bcast_output: the comm page has no
// room left under its size budget; see tests/cli_comm.rs and the model's tests.)
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
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
