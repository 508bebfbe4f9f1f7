// The machines people book today (issue 60): the Clusters page's table of every machine with
// its sources, searched, filtered and sorted; a machine copied into an editable one; a pasted
// node report made clusters; "Add a cluster" brings the new card into view; and the planner
// on a cloud instance and a centre's system, with node-hours, price, energy and carbon.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { serveDist, launch, freshPage, ready, shot } from "./harness.mjs";

let server, browser;
before(async () => { server = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const machines = JSON.parse(await readFile(new URL("../../data/machines.json", import.meta.url), "utf8")).machines;

async function clusters(page) {
  await page.goto(`${server.base}#/clusters`);
  await ready(page);
  await page.waitForSelector(".machines-table tbody tr");
}

const rows = (page) => page.locator(".machines-table tbody tr");

test("the Clusters page lists every machine, searched, filtered and sorted, with each figure's source", async () => {
  const { context, page, problems } = await freshPage(browser, server.origin);
  await clusters(page);
  const read = machines.filter((m) => m.cores_per_node);
  // Every machine of the file with a core count, the twelve seed papers' clusters.
  assert.equal(await rows(page).count(), read.length + 12);
  assert.match(await page.locator("#machine-count").textContent(), new RegExp(`^${read.length + 12} of ${read.length + 12} shown`));
  // Search narrows to the words typed.
  await page.fill("#machine-search", "azure hb");
  const azure = await rows(page).locator("th").allTextContents();
  assert.ok(azure.length >= 3 && azure.every((t) => /^Azure/.test(t)), azure.join(" | "));
  await page.fill("#machine-search", "");
  // GPU partitions only.
  await page.selectOption("#machine-gpu", "gpu");
  const gpus = read.filter((m) => (m.gpus_per_node ?? 0) > 0).length;
  assert.ok(gpus >= 2);
  assert.equal(await rows(page).count(), gpus);
  await page.selectOption("#machine-gpu", "");
  // Cloud only, sorted by carbon: the column is ascending and unknown values come last.
  await page.selectOption("#machine-origin", "cloud");
  await page.selectOption("#machine-sort", "carbon");
  const carbon = (await rows(page).locator("td:nth-child(12)").allTextContents()).map((t) => (t === "—" ? Infinity : Number(t.replace(/[^0-9.]/g, ""))));
  assert.equal(carbon.length, read.filter((m) => m.kind === "cloud").length);
  assert.deepEqual(carbon, [...carbon].sort((a, b) => a - b));
  // A fabric family filter keeps machines with such a fabric.
  await page.selectOption("#machine-origin", "");
  await page.selectOption("#machine-fabric", "Slingshot");
  const sling = await rows(page).locator("td:nth-child(9)").allTextContents();
  assert.ok(sling.length > 0 && sling.every((t) => /Slingshot/i.test(t)), sling.join(" | "));
  await page.selectOption("#machine-fabric", "");
  // Open a machine: each figure is shown beside its source, date and kind.
  const hbv3 = machines.find((m) => m.id === "azure-hbv3");
  await page.click("#machine-azure-hbv3 th button");
  const details = page.locator("#machine-details");
  await details.waitFor();
  const text = await details.textContent();
  for (const key of ["cores_per_node", "memory_per_node_gb", "price", "pue", "carbon_g_per_kwh"]) {
    assert.ok(hbv3[key], key);
    assert.ok(text.includes(`(${hbv3[key].kind})`) || text.includes(`; ${hbv3[key].kind})`), `${key}'s kind beside it`);
  }
  assert.match(text, /USD per node-hour/);
  assert.ok((await details.locator("td.source a").count()) >= 5, "sources link to their documents");
  await shot(page, "clusters-machine-details");
  // Copy it into an editable one: the copy's card opens at the end of the list, its name focused.
  await page.click("#copy-machine");
  const card = page.locator("#cluster-azure-hbv3-mine");
  await card.waitFor();
  await page.waitForFunction(() => document.activeElement?.closest("#cluster-azure-hbv3-mine") != null);
  assert.equal(await card.locator("input").first().inputValue(), "Azure HBv3 (my copy)".replace("Azure HBv3", hbv3.name));
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("'Add a cluster' brings the new card into view and focuses its name", async () => {
  const { context, page } = await freshPage(browser, server.origin);
  await clusters(page);
  await page.click("#add-cluster");
  await page.waitForSelector("#cluster-custom-1");
  await page.waitForFunction(() => document.activeElement?.closest("#cluster-custom-1") != null);
  const inView = await page.locator("#cluster-custom-1").evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.top < innerHeight && r.bottom > 0;
  });
  assert.ok(inView, "the new card is on screen");
  await context.close();
});

test("a pasted scontrol report becomes clusters; a malformed line is named", async () => {
  const { context, page, problems } = await freshPage(browser, server.origin);
  await clusters(page);
  const report = await readFile(new URL("../data/node_reports/scontrol.txt", import.meta.url), "utf8");
  await page.fill("#node-report", report);
  await page.click("#add-report");
  const said = await page.locator("#report-result").textContent();
  assert.match(said, /^Added [2-9]/, said);
  const added = Number(/^Added (\d+)/.exec(said)[1]);
  assert.equal(await page.locator("article.cluster:not([id^=cluster-wrg]):not([id^=cluster-bw]):not([id^=cluster-g5k]):not(#cluster-perseus):not(#cluster-narwhal)").count(), added);
  // A bad value: its line and column, and what was pasted stays in the box.
  const bad = report.replace(/RealMemory=\d+/, "RealMemory=lots");
  const line = bad.split("\n").findIndex((l) => l.includes("RealMemory=lots")) + 1;
  await page.fill("#node-report", bad);
  await page.click("#add-report");
  assert.match(await page.locator("#report-result").textContent(), new RegExp(`line ${line}, column \\d+`));
  assert.equal(await page.inputValue("#node-report"), bad);
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

// Calibration runs of the user's own on each machine (the planner's model: Tcomp(work) and
// α(np) = c + d·log2 np, γ, from runs on 1, 4 and 8 processes).
const SEQ = "work (MB)\ttime (s)\n512\t100\n1024\t200\n";
const PAR = "np\twork (MB)\ttime (s)\n4\t512\t104\n4\t1024\t206\n8\t512\t106\n8\t1024\t209\n";

test("the planner on a cloud instance and a centre's system: node-hours, price, kWh and kg CO2e", async () => {
  const complete = (m) => m.price && m.price.currency !== "XXX" && m.node_power_w && m.pue && m.carbon_g_per_kwh && m.cores_per_node;
  const cloud = machines.find((m) => m.kind === "cloud" && complete(m));
  const centre = machines.find((m) => m.kind === "centre" && complete(m));
  assert.ok(cloud && centre, "a cloud instance and a centre's system with price, power, PUE and carbon");
  const { context, page, problems } = await freshPage(browser, server.origin);
  await page.goto(`${server.base}multigrid.html`);
  await ready(page);
  for (const [i, m] of [[1, cloud], [2, centre]]) {
    if (i === 2) { await page.click("#add-calibration"); await page.waitForSelector("#cal2_cluster"); }
    await page.selectOption(`#cal${i}_cluster`, m.id);
    await page.fill(`#cal${i}_seq`, SEQ);
    await page.fill(`#cal${i}_par`, PAR);
  }
  await page.fill("#grid_n", "8192");
  await page.fill("#bytes_per_point", "32");
  await page.fill("#np", "64");
  for (const [field, m] of [["#pair_a", cloud], ["#pair_b", ""]]) await page.selectOption(field, m ? m.id : "");
  await page.fill("#free_a", String(4 * cloud.cores_per_node.value));
  await page.waitForSelector("#ranking tbody tr");
  const first = await page.locator("#ranking tbody tr").first().locator("td").allTextContents();
  // processes, fabric, T, placement, node-hours, price, energy, carbon.
  const [, procs, , time, placement, nodeHours, price, kwh, co2] = first;
  const np = Number(procs.split(" × ")[0]);
  const perNode = cloud.cores_per_node.value;
  const nodes = Math.ceil(np / perNode);
  assert.match(placement, new RegExp(`^${nodes} nodes × ${perNode} per node`));
  const hours = (Number(time.split(" ")[0]) / 3600) * nodes;
  const close = (a, b) => Math.abs(a - b) <= 2e-3 * Math.abs(b) + 1e-9;
  assert.ok(close(Number(nodeHours), hours), `${nodeHours} node-hours, ${hours} by hand`);
  assert.match(price, new RegExp(`${cloud.price.currency}`));
  const w = cloud.node_power_w.value;
  assert.ok(close(Number(kwh), (hours * w * cloud.pue.value) / 1000), `${kwh} kWh`);
  assert.ok(close(Number(co2), (Number(kwh) * cloud.carbon_g_per_kwh.value) / 1000), `${co2} kg`);
  // The centre's system, alone, in the per-cluster table at np = 64: its own currency.
  const centreRow = page.locator("#target-table tbody tr", { hasText: centre.name });
  assert.match(await centreRow.textContent(), new RegExp(centre.price.currency));
  // Rank by carbon: the column is ascending.
  await page.selectOption("#rank-by", "carbon");
  const c = (await page.locator("#ranking tbody tr td:nth-child(9)").allTextContents()).map(Number);
  assert.deepEqual(c, [...c].sort((a, b) => a - b));
  await shot(page, "planner-cloud-and-centre");
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});
