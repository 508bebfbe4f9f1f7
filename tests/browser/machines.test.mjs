// Today's machines as a person uses them: the Clusters page's table of machines in service
// (search, filter, sort, each figure's source), "Use in my clusters" for a cloud instance and a
// national system, then the planner on both: node-hours, the price in its currency, kWh and
// kg CO2e of each option, checked against the machine's own figures.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { serveDist, launch, freshPage, ready, shot, command } from "./harness.mjs";

let server, browser;
before(async () => { server = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const DATA = JSON.parse(await readFile(new URL("../../data/machines.json", import.meta.url), "utf8"));
const machine = (id) => DATA.machines.find((m) => m.id === id);

async function openClusters(page) {
  await page.goto(`${server.base}#/clusters`);
  await ready(page);
  await page.waitForSelector("#machines-table tbody tr.machine");
}

const rows = (page) => page.locator("#machines-table tbody tr.machine");

test("the Clusters page lists every machine in service, searchable, filtered and sorted, each figure with its source", async () => {
  const { context, page, problems } = await freshPage(browser, server.origin);
  await openClusters(page);
  assert.equal(await rows(page).count(), DATA.machines.length);
  assert.ok(DATA.machines.length >= 24);
  // Filters: cloud instances only, then GPU partitions only.
  await page.selectOption("#machine-kind", "cloud");
  const cloud = DATA.machines.filter((m) => m.kind === "cloud").length;
  assert.equal(await rows(page).count(), cloud);
  await page.selectOption("#machine-kind", "");
  await page.selectOption("#machine-accel", "gpu");
  assert.equal(await rows(page).count(), DATA.machines.filter((m) => m.accelerator === "gpu").length);
  await page.selectOption("#machine-accel", "");
  await page.selectOption("#machine-fabric", "Slingshot");
  assert.equal(await rows(page).count(), DATA.machines.filter((m) => (m.fabrics ?? []).some((f) => f.name.includes("Slingshot"))).length);
  await page.selectOption("#machine-fabric", "");
  // Sorted by carbon intensity, lowest first: the first row is the lowest of the file.
  await page.selectOption("#machine-sort", "carbon");
  const lowest = DATA.machines.filter((m) => m.carbon_g_per_kwh).sort((a, b) => a.carbon_g_per_kwh.value - b.carbon_g_per_kwh.value)[0];
  assert.equal(await rows(page).first().getAttribute("id"), `machine-${lowest.id}`);
  // Search: one machine by name.
  await page.fill("#machine-search", "archer2");
  assert.equal(await rows(page).count(), 1);
  // A value carries its source in its tooltip; opened, the machine lists every figure's source.
  const m = machine("archer2");
  const cores = rows(page).first().locator("td.num").first();
  assert.equal((await cores.textContent()).trim(), String(m.cores_per_node.value));
  const doc = DATA.documents.find((d) => d.id === m.cores_per_node.source);
  assert.ok((await cores.getAttribute("title")).includes(doc.title));
  await rows(page).first().locator("button.open-machine").click();
  const sources = page.locator("#machine-archer2-sources");
  await sources.waitFor();
  for (const key of ["cores_per_node", "memory_per_node_gb", "node_power_w", "pue", "carbon_g_per_kwh"]) {
    const d = DATA.documents.find((x) => x.id === m[key].source);
    assert.ok(await sources.locator(`a[href="${d.address}"]`).count() >= 1, `${key}: its document ${d.id} is linked`);
  }
  assert.ok((await sources.textContent()).includes(m.price.basis), "the price's basis is shown");
  await shot(page, "machines-table");
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

/** The ranking's rows as {describe, nodeHours, price, kwh, co2e}. */
async function ranking(page) {
  return page.locator("#ranking tbody tr").evaluateAll((trs) => trs.map((tr) => {
    const td = [...tr.querySelectorAll("td")].map((c) => c.textContent.trim());
    const badge = tr.querySelector(".badge")?.textContent ?? "";
    return { describe: td[1].slice(0, td[1].length - badge.length).trim(), greenest: badge !== "", time: Number(td[3].split(" ")[0]), nodes: td[6], nodeHours: Number(td[7]), price: td[8], kwh: Number(td[9]), co2e: Number(td[10]) };
  }));
}

test("a cloud instance and a national system used in the planner: node-hours, price with currency, kWh and kg CO2e", async () => {
  const { context, page, problems } = await freshPage(browser, server.origin);
  await openClusters(page);
  for (const id of ["azure-hbv3", "archer2"]) {
    await page.fill("#machine-search", id);
    await page.locator(`#machine-${id} button.open-machine`).click();
    await page.locator(`#machine-${id}-sources button.use-machine`).click();
    // The copy is the user's, brought into view with the focus in it.
    await page.waitForSelector(`#cluster-${id}`);
    assert.ok(await page.evaluate((id) => document.getElementById(`cluster-${id}`).contains(document.activeElement), id), `${id}: focus in its card`);
  }
  await page.goto(`${server.base}#/multigrid`);
  await ready(page);
  const costs = await page.inputValue("#costs");
  assert.match(costs, /^azure-hbv3, 3\.6, USD, node-hour/m);
  assert.match(costs, /^archer2, 0\.2, GBP, CU, 1,/m);
  const SEQ = "work (MB)\ttime (s)\n2048\t150\n1024\t74\n";
  const PAR = "np,work_mb,time_s\n4,2048,158\n4,1024,80\n8,2048,161\n8,1024,82.5\n";
  const a = machine("azure-hbv3"), b = machine("archer2");
  if (await page.locator("#cal2_cluster").count() === 0) await page.click("#add-calibration");
  for (const [i, m] of [[1, a], [2, b]]) {
    await page.selectOption(`#cal${i}_cluster`, m.id);
    await page.selectOption(`#cal${i}_fabric`, m.fabrics[0].name);
    await page.fill(`#cal${i}_seq`, SEQ);
    await page.fill(`#cal${i}_par`, PAR);
  }
  await page.selectOption("#pair_a", a.id);
  await page.selectOption("#pair_b", b.id);
  await page.fill("#free_a", "512");
  await page.fill("#free_b", "512");
  await page.fill("#ppn_a", "");
  await page.fill("#ppn_b", "");
  await page.waitForSelector("#ranking tbody tr");
  const options = await ranking(page);
  const of = (name) => options.find((o) => o.describe.endsWith(name) && !o.describe.includes("+"));
  for (const [m, currency, perNodeHour] of [[a, "USD", a.price.amount], [b, "GBP", b.price.amount / b.price.unit_node_hours]]) {
    const o = of(m.name);
    assert.ok(o, `an option on ${m.name} alone: ${JSON.stringify(options.slice(0, 3))}`);
    // Whole nodes at the machine's cores per node.
    const procs = Number(/^(\d+) ×/.exec(o.describe)[1]);
    const nodes = Math.ceil(procs / m.cores_per_node.value);
    assert.ok(o.nodes.startsWith(`${nodes} (`), `${o.nodes}: ${nodes} nodes`);
    const hours = o.time / 3600;
    const close = (x, y, what) => assert.ok(Math.abs(x - y) <= 1e-3 * Math.abs(y) + 1e-9, `${m.id} ${what}: ${x} against ${y}`);
    close(o.nodeHours, nodes * hours, "node-hours");
    assert.ok(o.price.includes(currency), `${o.price} in ${currency}`);
    close(parseFloat(o.price), o.nodeHours * perNodeHour, "price");
    // Green Algorithms at load 1: node-hours × node power × PUE; carbon × grid intensity.
    const kwh = o.nodeHours * m.node_power_w.value * m.pue.value / 1000;
    close(o.kwh, kwh, "kWh");
    close(o.co2e, kwh * m.carbon_g_per_kwh.value / 1000, "kg CO2e");
  }
  // Ranked by carbon, lowest first; the lowest-carbon option of the time–price front is marked.
  assert.equal(options.filter((o) => o.greenest).length, 1);
  await page.selectOption("#rank_by", "carbon");
  await page.waitForSelector("h3:has-text('by carbon')");
  const byCarbon = (await ranking(page)).map((o) => o.co2e);
  assert.ok(byCarbon.every((x, i) => i === 0 || byCarbon[i - 1] <= x), `lowest first: ${byCarbon}`);
  await shot(page, "machines-planner");
  // A malformed costs line is named with its line and column, and the rest of the page works.
  await page.fill("#costs", `${costs}\nmine, lots`);
  await page.waitForSelector("#costs-error li");
  assert.match(await page.textContent("#costs-error"), /line 3, column 2: price: expected a number/);
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

// A two-partition scontrol report (tests/data/node_reports/scontrol.txt, written from the
// format Slurm documents) pasted on the Clusters page and read in its worker: the clusters the
// command makes of it, with their counts; an lscpu report too; a malformed line named.
test("your own cluster in one paste: scontrol and lscpu output become clusters, a bad line is named", async () => {
  const { context, page, problems } = await freshPage(browser, server.origin);
  await openClusters(page);
  const wasm = [];
  page.on("request", (r) => { if (r.url().endsWith(".wasm")) wasm.push(r.url()); });
  const report = await readFile(new URL("../data/node_reports/scontrol.txt", import.meta.url), "utf8");
  const want = command(["cluster", "--compact"], report).clusters;
  assert.equal(want.length, 4);
  await page.click(".node-report summary");
  assert.equal(wasm.length, 0, "the reader is not loaded before a report is read");
  // What was typed above stays when clusters are added (the page is not made again).
  await page.fill("#machine-search", "archer");
  await page.fill("#node-report", report);
  await page.click("#node-report-read");
  await page.waitForSelector("#node-report-status.notice");
  assert.match(await page.textContent("#node-report-status"), /^Read as scontrol show node output: added to your clusters batch \(64 cores, 251 GB\): 3 nodes of 64 cores; /);
  assert.equal(wasm.filter((u) => /sw-cluster-worker/.test(u)).length, 1, `the worker's wasm loaded: ${wasm}`);
  assert.equal(await page.inputValue("#machine-search"), "archer", "the table's search is kept");
  assert.equal(await page.inputValue("#node-report"), report, "the pasted report is kept");
  for (const c of want) {
    const card = page.locator(`#cluster-${c.id}`);
    await card.waitFor();
    const values = await card.locator("input").evaluateAll((is) => Object.fromEntries(is.map((i) => [i.id, i.value])));
    const field = (suffix) => Object.entries(values).find(([k]) => k.endsWith(suffix))?.[1];
    assert.equal(Number(field("nodes")), c.nodes, `${c.id} nodes in ${JSON.stringify(values)}`);
    assert.equal(Number(field("cores")), c.cores_per_node, `${c.id} cores`);
  }
  // The same report again: its clusters join with ids of their own.
  await page.click("#node-report-read");
  await page.waitForSelector(`#cluster-${want[0].id}-2`);
  // lscpu: one node.
  const lscpu = await readFile(new URL("../data/node_reports/lscpu.txt", import.meta.url), "utf8");
  const one = command(["cluster", "--compact"], lscpu).clusters[0];
  await page.fill("#node-report", lscpu);
  await page.click("#node-report-read");
  await page.waitForFunction(() => /lscpu/.test(document.getElementById("node-report-status")?.textContent ?? ""));
  await page.waitForSelector(`#cluster-${one.id}`);
  // A malformed value: its line and column, and the text kept.
  const bad = report.replace("RealMemory=257000", "RealMemory=lots");
  await page.fill("#node-report", bad);
  await page.click("#node-report-read");
  await page.waitForSelector("#node-report-error");
  const error = await page.textContent("#node-report-error");
  assert.equal(error, `The report was not read: ${commandError(["cluster"], bad)}`);
  assert.match(error, /line 9, column \d+/);
  assert.equal(await page.inputValue("#node-report"), bad, "the pasted text stays");
  await page.locator(".node-report").scrollIntoViewIfNeeded();
  await shot(page, "clusters-node-report");
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

/** The command's one line on standard error for `input`, without its "scalewise NAME: ". */
function commandError(args, input) {
  try {
    command(args, input);
  } catch (e) {
    return e.message.replace(/^scalewise [a-z-]+ failed \(\d+\): scalewise [a-z-]+: /, "");
  }
  throw new Error(`${args.join(" ")} accepted the input`);
}
