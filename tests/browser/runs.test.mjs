// The Bottlenecks page reads Score-P runs: a folder chosen with the folder picker (Extra-P's
// single_parameter cube set, 9 runs) is read in the page's worker into the experiment's text
// and ranked as the command ranks the same folder; a folder dropped on the drop zone (the File
// and Directory Entries API faked over real File objects: multi_parameter, 27 runs of x, y, z)
// gets its heat map; the runs are read again with another aggregate, inclusive values and
// another metric; a set the runs' names refuse is named and the page keeps its experiment; a
// saved .extra-p experiment and a single .cubex profile are read through the file picker; a
// large set shows its progress and Cancel keeps the experiment before; TAU folders, an HPCToolkit
// database and a Caliper JSON file are read as the command reads them.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFile, readdir, mkdtemp, mkdir, writeFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, basename, relative } from "node:path";
import { serveDist, launch, openEntry, shot, command, example } from "./harness.mjs";

const CUBES = new URL("../data/extrap-upstream/cubeset/", import.meta.url).pathname;
const SAVED = new URL("../data/saved/", import.meta.url).pathname;
const AXE = new URL("../../node_modules/axe-core/axe.min.js", import.meta.url).pathname;

let server, browser;
before(async () => { server = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

async function open() {
  const p = await openEntry(browser, server, "bottlenecks.html");
  await p.page.waitForSelector("#runs-drop");
  // The page opens on an example (ranked when asked): these tests start from an empty box.
  await p.page.fill("#extrap-text", "");
  await p.page.waitForSelector("#extrap-example-prompt", { state: "detached" });
  return p;
}

/** The command's answer for a path (a failure of the command fails the test). */
function cli(args) {
  return command(["bottlenecks", ...args, "--compact"]);
}

/**
 * Records, from now on, whether the reading's progress showed and whether the ranking ran
 * (its results marked busy, or drawn for the first time); `settled` waits for both to end.
 */
async function watch(page) {
  await page.evaluate(() => {
    window.swSeen = { progress: false, ranking: false };
    window.swObs?.disconnect();
    window.swObs = new MutationObserver((records) => {
      for (const m of records) {
        if (m.type === "attributes" && m.attributeName === "aria-busy") window.swSeen.ranking = true;
        for (const n of m.addedNodes ?? []) {
          if (n.nodeType !== 1) continue;
          if (n.id === "runs-progress" || n.querySelector?.("#runs-progress")) window.swSeen.progress = true;
          if (n.matches?.(".extrap-results") || n.querySelector?.(".extrap-results")) window.swSeen.ranking = true;
        }
      }
    });
    window.swObs.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-busy"] });
  });
}

/** Waits until the files are read (or refused) and the new text is ranked. */
async function settled(page, { ranked = true } = {}) {
  await page.waitForFunction((ranked) => !document.getElementById("runs-progress")
    && (document.getElementById("runs-read") || document.getElementById("runs-error"))
    && (!ranked || (window.swSeen.ranking && document.querySelector(".extrap-results[aria-busy=false] #extrap-ranking tbody tr")
      && !document.getElementById("extrap-progress"))), ranked, { timeout: 60_000 });
  return page.evaluate(() => window.swSeen);
}

/** The last "dominates" line of the summary: [its point, the call path, the share]. */
async function dominant(page) {
  const lines = await page.locator("#extrap-dominant li").allTextContents();
  const line = lines.filter((l) => / dominates with /.test(l)).at(-1) ?? "";
  const m = /^At (.+): (.+) dominates with ([0-9.]+) % of the run time\.$/.exec(line);
  assert.ok(m, `a dominant region in ${JSON.stringify(lines)}`);
  return { at: m[1], callpath: m[2], share: Number(m[3]) / 100 };
}

/** The page's dominant at the largest target is the command's (when the binary is built). */
async function sameAsCommand(page, args) {
  const d = await dominant(page);
  const v = cli(args);
  const top = v.dominant.at(-1);
  assert.equal(d.callpath, top.callpath, `the command: ${JSON.stringify(top)}; the page: ${JSON.stringify(d)}`);
  assert.ok(Math.abs(d.share - top.share) < 0.001, `share ${d.share} on the page, ${top.share} from the command`);
  assert.ok(d.at.includes(String(top.n)), `the page's point "${d.at}" has the command's n = ${top.n}`);
  return d;
}

/** The experiment's text; a long one is held back from the text box until asked for. */
async function text(page) {
  if (await page.locator("#extrap-text-show").count()) await page.click("#extrap-text-show");
  return page.locator("#extrap-text").inputValue();
}
const firstLine = async (page) => (await text(page)).split("\n")[0];
const regions = (t) => [...t.matchAll(/^REGION (.+)$/gm)].map((m) => m[1]);

async function axe(page) {
  await page.evaluate(await readFile(AXE, "utf8"));
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    return r.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 4).map((n) => n.target.join(" ")).join(", ")}`);
  });
}

const SINGLE = join(CUBES, "single_parameter");
const PATHS = ["main", "main->init_mat", "main->zero_mat", "main->mat_mul"];

/** Opens the page and reads single_parameter through the folder picker. */
async function readSingle() {
  const p = await open();
  await watch(p.page);
  await p.page.setInputFiles("#runs-folder", SINGLE);
  const seen = await settled(p.page);
  return { ...p, seen };
}

test("a folder of 9 Score-P runs through the folder picker: read in the worker, ranked as the command ranks it", async () => {
  const t0 = Date.now();
  const { context, page, problems, seen } = await readSingle();
  console.log(`browser: 9 Cube runs read and ranked in ${Date.now() - t0} ms (page open to table, wall clock)`);
  assert.ok(seen.progress, "the reading's progress (and Cancel) showed");
  const read = await page.locator("#runs-read").textContent();
  assert.match(read, /^9 runs read \(Cube 4 profiles, 1 locations? each\): time, exclusive values, mean over locations \(per process\)\. Nothing was uploaded/);
  // The experiment is the page's text: what was read, exclusive times, one parameter, 9 points.
  const t = await text(page);
  assert.ok(t.startsWith("# 9 runs read (Cube 4 profiles"), t.slice(0, 200));
  assert.match(t, /^#scalewise times=exclusive$/m);
  assert.match(t, /^PARAMETER x$/m);
  assert.equal((t.match(/^POINTS /gm) ?? []).length, 9);
  assert.deepEqual([...new Set(regions(t))].sort(), [...PATHS].sort());
  // The ranking: the four call paths (by their last part, as a call tree may show them).
  assert.ok(await page.locator("#extrap-ranking tbody tr").count() >= 3);
  const ranking = await page.locator("#extrap-ranking").textContent();
  for (const p of PATHS) assert.ok(ranking.includes(p.split("->").at(-1)), `${p} in the ranking`);
  // Targets 4× and 16× the largest x (2000), as the command's.
  const d = await sameAsCommand(page, [SINGLE]);
  assert.match(d.at, /x = 32000/);
  assert.ok(PATHS.includes(d.callpath));
  // The options of the runs: the profile's metrics, exclusive, mean.
  const v = cli([SINGLE]);
  const metrics = await page.locator("#runs-metric option").evaluateAll((os) => os.map((o) => o.value));
  assert.deepEqual(metrics, v.runs.metrics);
  assert.ok(metrics.includes("time"));
  assert.equal(await page.locator("#runs-metric").inputValue(), "time");
  assert.equal(await page.locator("#runs-inclusive").inputValue(), "exclusive");
  assert.equal(await page.locator("#runs-aggregate").inputValue(), "mean");
  await page.locator("#runs-drop").scrollIntoViewIfNeeded();
  await shot(page, "runs-read");
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(problems.consoleErrors, []);
  assert.deepEqual(problems.foreignRequests, []);
  await context.close();
});

test("the same runs read again: sum over locations, inclusive values, another metric", async () => {
  const { context, page, problems } = await readSingle();
  const before = await text(page);
  await watch(page);
  await page.selectOption("#runs-aggregate", "sum");
  await page.waitForFunction((b) => document.getElementById("extrap-text").value !== b, before);
  await settled(page);
  assert.match(await firstLine(page), /^# 9 runs read .*: time, exclusive values, sum over locations/);
  assert.match(await page.locator("#runs-read").textContent(), /sum over locations/);
  assert.equal(await page.locator("#runs-aggregate").inputValue(), "sum");
  await sameAsCommand(page, [SINGLE, "--aggregate", "sum"]);

  const sum = await text(page);
  await watch(page);
  await page.selectOption("#runs-inclusive", "inclusive");
  await page.waitForFunction((b) => document.getElementById("extrap-text").value !== b, sum);
  await settled(page);
  assert.match(await firstLine(page), /^# 9 runs read .*: time, inclusive values, sum over locations/);
  assert.match(await text(page), /^#scalewise times=inclusive$/m);
  assert.equal(await page.locator("#runs-inclusive").inputValue(), "inclusive");
  assert.equal(await page.locator("#runs-aggregate").inputValue(), "sum", "the aggregate chosen before is kept");
  await sameAsCommand(page, [SINGLE, "--aggregate", "sum", "--inclusive"]);

  // Another metric of the profiles (visits, where the profiles have it): its series in the text.
  const incl = await text(page);
  const metrics = await page.locator("#runs-metric option").evaluateAll((os) => os.map((o) => o.value));
  const other = metrics.includes("visits") ? "visits" : metrics.find((m) => m !== "time");
  assert.ok(other, `another metric than time among ${metrics}`);
  await watch(page);
  await page.selectOption("#runs-metric", other);
  await page.waitForFunction((b) => document.getElementById("extrap-text").value !== b, incl);
  await settled(page);
  assert.ok((await firstLine(page)).startsWith("# 9 runs read") && (await firstLine(page)).includes(`: ${other}, inclusive values, sum over locations`), await firstLine(page));
  assert.ok((await text(page)).includes(`\nMETRIC ${other}\n`));
  assert.equal(await page.locator("#runs-metric").inputValue(), other);
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

/** Every file under `dir`, as its path from `dir` ('/' between parts). */
async function filesUnder(dir) {
  const out = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out.push(relative(dir, join(e.parentPath ?? e.path, e.name)));
  }
  return out.sort();
}

/**
 * Drops the folder `dir` on #runs-drop as Chromium would: a DragEvent whose DataTransfer's
 * items give the folder's entry (File and Directory Entries API, faked over real File
 * objects made of the files' bytes). Resolves to whether dragover and drop were taken.
 */
async function dropFolder(page, dir) {
  const files = [];
  for (const rel of await filesUnder(dir)) files.push({ rel, b64: (await readFile(join(dir, rel))).toString("base64") });
  return page.evaluate(({ name, files }) => {
    const later = (f) => setTimeout(f, 0); // the real API answers asynchronously
    const folder = (name, fullPath) => {
      const children = [];
      return {
        isFile: false, isDirectory: true, name, fullPath, children,
        createReader() {
          let done = false;
          return { readEntries(ok) { later(() => { ok(done ? [] : children.slice()); done = true; }); } };
        },
      };
    };
    const root = folder(name, `/${name}`);
    for (const { rel, b64 } of files) {
      const parts = rel.split("/");
      let d = root;
      for (const p of parts.slice(0, -1)) {
        let c = d.children.find((x) => x.name === p);
        if (!c) { c = folder(p, `${d.fullPath}/${p}`); d.children.push(c); }
        d = c;
      }
      const leaf = parts.at(-1);
      const file = new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], leaf);
      d.children.push({ isFile: true, isDirectory: false, name: leaf, fullPath: `${d.fullPath}/${leaf}`, file(ok) { later(() => ok(file)); } });
    }
    const zone = document.getElementById("runs-drop");
    const event = (type) => {
      const dt = new DataTransfer();
      Object.defineProperty(dt, "items", { value: [{ kind: "file", webkitGetAsEntry: () => root, getAsFile: () => null }] });
      return new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true });
    };
    const over = event("dragover");
    zone.dispatchEvent(over);
    const drop = event("drop");
    zone.dispatchEvent(drop);
    return { over: over.defaultPrevented, drop: drop.defaultPrevented };
  }, { name: basename(dir), files });
}

test("a folder of 27 runs of three parameters dropped on the page: read, ranked, its heat map", async () => {
  const { context, page, problems } = await open();
  const dir = join(CUBES, "multi_parameter");
  await watch(page);
  const taken = await dropFolder(page, dir);
  assert.deepEqual(taken, { over: true, drop: true }, "the drop zone takes the drag and the drop");
  await settled(page);
  assert.match(await page.locator("#runs-read").textContent(), /^27 runs read \(Cube 4 profiles, 1 locations? each\): time, exclusive values, mean over locations/);
  const t = await text(page);
  assert.ok(t.startsWith("# 27 runs read"), t.slice(0, 200));
  assert.deepEqual([...t.matchAll(/^PARAMETER (.+)$/gm)].map((m) => m[1]), ["x", "y", "z"]);
  assert.equal((t.match(/^POINTS /gm) ?? []).length, 27);
  // The hint under the fields: x is the process count, y and z held (the command's warnings).
  const hint = await page.locator("#extrap .hint", { hasText: "process count" }).textContent();
  assert.match(hint, /process count: x\b/);
  const warnings = await page.locator("#extrap .warnings").allTextContents();
  assert.match(warnings.join(" "), /y held at its largest value, 25/);
  assert.match(warnings.join(" "), /z held at its largest value, 25/);
  await sameAsCommand(page, [dir]);
  // Two parameters or more: the heat map, rows y, columns x.
  const heat = page.locator("#extrap-heat");
  await heat.waitFor();
  assert.match(await heat.locator("thead th").first().textContent(), /^y \\ x$/);
  assert.ok(await heat.locator("tbody tr").count() >= 3);
  await heat.scrollIntoViewIfNeeded();
  await shot(page, "runs-dropped");
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("a set the runs' names refuse is named, and the page keeps its experiment and goes on working", async () => {
  const { context, page, problems } = await readSingle();
  const kept = await text(page);
  const rows = await page.locator("#extrap-ranking tbody tr").count();
  const neg = join(CUBES, "negative_example");
  await watch(page);
  await page.setInputFiles("#runs-folder", neg);
  await page.waitForSelector("#runs-error");
  const error = await page.locator("#runs-error").textContent();
  assert.match(error, /x10y1z1|mm\.x1y1wrong1/);
  assert.equal(await page.locator("#runs-error").getAttribute("role"), "alert");
  // The runs read before stay shown, with their options (their files are still kept).
  assert.match(await page.locator("#runs-read").textContent(), /^9 runs read/);
  assert.equal(await page.locator("#runs-aggregate").count(), 1);
  assert.equal(await text(page), kept, "the experiment before is kept");
  assert.equal(await page.locator("#extrap-ranking tbody tr").count(), rows, "its ranking too");
  assert.throws(() => cli([neg]), /x10y1z1.*mm\.x1y1wrong1|mm\.x1y1wrong1.*x10y1z1/, "the command refuses the set too, naming the same runs");
  await page.locator("#runs-drop").scrollIntoViewIfNeeded();
  await shot(page, "runs-refused");
  // The page goes on: another target ranks the kept experiment; a good folder is read again.
  await page.fill("#extrap_predict", "64");
  // (The kept fits are evaluated at the new target: the results are not marked busy meanwhile.)
  await page.waitForFunction(() => /At x = 64:/.test(document.getElementById("extrap-dominant")?.textContent)
    && document.querySelector(".extrap-results[aria-busy=false]"), null, { timeout: 60_000 });
  await page.fill("#extrap_predict", "");
  await page.waitForFunction(() => /At x = 32000:/.test(document.getElementById("extrap-dominant")?.textContent)
    && document.querySelector(".extrap-results[aria-busy=false]"), null, { timeout: 60_000 });
  // The same runs again make the same text: read, with nothing new to rank.
  await page.setInputFiles("#runs-folder", SINGLE);
  await page.waitForSelector("#runs-read", { timeout: 60_000 });
  assert.equal(await page.locator("#runs-error").count(), 0);
  assert.match(await page.locator("#runs-read").textContent(), /^9 runs read/);
  assert.equal(await text(page), kept);
  assert.equal(await page.locator("#runs-aggregate").count(), 1, "the options are back");
  await sameAsCommand(page, [SINGLE]);
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("a saved Extra-P experiment (.extra-p) through the file picker: the text becomes its JSON, ranked", async () => {
  const { context, page, problems } = await open();
  const file = join(SAVED, "two_parameter3.txt.extra-p");
  await watch(page);
  await page.setInputFiles("#extrap-file", file);
  await settled(page);
  assert.match(await page.locator("#runs-read").textContent(), /^A saved Extra-P experiment, read with every repetition\./);
  assert.equal(await page.locator("#runs-metric").count(), 0, "no options to read a saved experiment again with");
  const t = await text(page);
  const json = JSON.parse(t);
  assert.ok(json && typeof json === "object", "the text is the experiment as JSON");
  assert.ok(await page.locator("#extrap-ranking tbody tr").count() >= 1);
  await sameAsCommand(page, [file]);
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("one .cubex profile through the file picker is read as one run", async () => {
  const { context, page, problems } = await open();
  const file = join(SINGLE, "mm.x1y1z1.r1", "profile.cubex");
  await watch(page);
  await page.setInputFiles("#extrap-file", file);
  await settled(page);
  assert.match(await page.locator("#runs-read").textContent(), /^1 run read \(Cube 4 profiles, 1 locations? each\): time, exclusive values/);
  const t = await text(page);
  assert.ok(t.startsWith("# 1 run read"), t.slice(0, 200));
  assert.equal((t.match(/^POINTS /gm) ?? []).length, 1);
  assert.deepEqual([...new Set(regions(t))].sort(), [...PATHS].sort());
  assert.ok(await page.locator("#extrap-ranking tbody tr").count() >= 1);
  await sameAsCommand(page, [file]);
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test("a large set shows its progress, and Cancel keeps the experiment before", async (t) => {
  // 600 runs (copies of one profile under as many x values): long enough to cancel.
  const tmp = await mkdtemp(join(tmpdir(), "sw-runs-"));
  t.after(() => rm(tmp, { recursive: true, force: true }));
  const dir = join(tmp, "big");
  const profile = await readFile(join(SINGLE, "mm.x1y1z1.r1", "profile.cubex"));
  for (let x = 1; x <= 600; x++) {
    await mkdir(join(dir, `mm.x${x}y1z1.r1`), { recursive: true });
    await writeFile(join(dir, `mm.x${x}y1z1.r1`, "profile.cubex"), profile);
  }
  const { context, page, problems } = await readSingle();
  const kept = await text(page);
  await page.setInputFiles("#runs-folder", dir);
  await page.waitForSelector("#runs-progress progress");
  assert.equal(await page.locator("#runs-progress").getAttribute("role"), "status");
  await page.waitForFunction(() => Number(document.querySelector("#runs-progress progress")?.value) > 0, null, { timeout: 30_000 })
    .catch(() => {}); // a fast machine may read them all before a progress message
  const cancelled = await page.evaluate(() => {
    const b = document.querySelector("#runs-progress button");
    if (!b) return false;
    b.click();
    return true;
  });
  if (!cancelled) { console.log("(the 600 runs were read before Cancel could be clicked)"); await context.close(); return; }
  await page.waitForSelector("#runs-error");
  assert.match(await page.locator("#runs-error").textContent(), /^Reading cancelled/);
  await page.waitForTimeout(500);
  assert.equal(await text(page), kept, "the experiment before is kept");
  assert.equal(await page.locator("#runs-progress").count(), 0);
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

// The size: 40 runs of 64 locations and 500 call paths (written from known laws by
// `cargo run --example cube_set`, which cargo test builds), read in the worker and ranked. The
// time and the longest gap between frames are printed, not asserted (make bench reads them).
const CUBE_SET = example("cube_set");

test("40 runs of 64 locations and 500 call paths: read and ranked in the page's workers, the page drawing frames throughout", async () => {
  const dir = await mkdtemp(join(tmpdir(), "sw-cubes-"));
  execFileSync(CUBE_SET, [dir, "40", "64", "500"]);
  const { context, page, problems } = await open();
  await watch(page);
  await page.evaluate(() => {
    window.swGap = 0;
    let last = performance.now();
    const tick = (t) => { window.swGap = Math.max(window.swGap, t - last); last = t; window.swRaf = requestAnimationFrame(tick); };
    window.swRaf = requestAnimationFrame(tick);
  });
  const t0 = Date.now();
  await page.setInputFiles("#runs-folder", dir);
  await settled(page);
  const ms = Date.now() - t0;
  const gap = await page.evaluate(() => { cancelAnimationFrame(window.swRaf); return window.swGap; });
  assert.match(await page.locator("#runs-read").textContent(), /^40 runs read \(Cube 4 profiles, 64 locations each\)/);
  // 800 KB of text is kept, not laid out in the text box until asked for; the call tree of
  // 500 regions opens along the dominant path, every node on asking.
  assert.match(await page.locator("#extrap-text-held").textContent(), /^The experiment is \d{3} KB of text: kept and saved, not shown/);
  assert.equal(await page.locator("#extrap-text").count(), 0);
  const opened = await page.locator("#extrap-ranking tbody tr").count();
  assert.ok(opened >= 5 && opened < 100, `the call tree opens along the dominant path: ${opened} rows`);
  const dom = await dominant(page);
  assert.equal(await page.locator("#extrap-ranking tbody td[data-csv]").evaluateAll((tds, p) => tds.filter((td) => td.dataset.csv === p).length, dom.callpath), 1, "the dominant region is a row");
  await page.click("#extrap-tree-all");
  assert.equal(await page.locator("#extrap-ranking tbody tr").count(), 500, "every node opened");
  await page.click("#extrap-tree-all");
  assert.equal(await page.locator("#extrap-ranking tbody tr").count(), opened);
  assert.equal(regions(await text(page)).length, 1000, "500 call paths, each with its time and its imbalance");
  await sameAsCommand(page, [dir]);
  console.log(`# browser: 40 runs × 64 locations × 500 call paths read and ranked in ${ms} ms (choosing the folder to the ranked table), longest gap between frames ${gap.toFixed(0)} ms`);
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
  await rm(dir, { recursive: true, force: true });
});

test("every Extra-P cube set that Extra-P opens opens on the page as in the command; the negative examples are refused", async () => {
  const { context, page, problems } = await open();
  // single_parameter and multi_parameter are read by the tests above.
  for (const set of ["allowed_formats", "extra_file", "extra_folder", "simple_threaded"]) {
    const dir = join(CUBES, set);
    await watch(page);
    await page.setInputFiles("#runs-folder", dir);
    await page.waitForFunction(() => !document.getElementById("runs-progress") && (document.getElementById("runs-read") || document.getElementById("runs-error")), null, { timeout: 60_000 });
    // The message is read only when there is an error: a locator's textContent() waits up to
    // 30 s for its element to appear.
    if (await page.locator("#runs-error").count()) assert.fail(`${set}: ${await page.locator("#runs-error").textContent()}`);
    const v = cli([dir]);
    {
      const n = v.runs.count;
      await page.waitForFunction((n) => new RegExp(`^${n} runs? read`).test(document.getElementById("runs-read")?.textContent ?? ""), n, { timeout: 60_000 });
      // Two sets may make the same text (extra_file, extra_folder), which is not ranked again:
      // wait for the command's dominant region on a ranking at rest.
      const top = v.dominant.at(-1);
      await page.waitForFunction(([callpath, n]) => {
        const li = [...document.querySelectorAll("#extrap-dominant li")].filter((l) => / dominates with /.test(l.textContent)).at(-1);
        return document.querySelector(".extrap-results[aria-busy=false]") && !document.getElementById("extrap-progress")
          && li && li.textContent.includes(`: ${callpath} dominates`) && li.textContent.includes(String(n));
      }, [top.callpath, top.n], { timeout: 60_000 });
      await sameAsCommand(page, [dir]);
    }
  }
  for (const set of ["negative_example", "negative_example2"]) {
    await page.setInputFiles("#runs-folder", join(CUBES, set));
    await page.waitForSelector("#runs-error", { timeout: 60_000 });
    assert.match(await page.locator("#runs-error").textContent(), /"(x10y1z1|mm\.x1y1wrong1|mm\.y1x1z1)"/);
  }
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

// Thicket's LULESH profiles (tests/data/cali/README.md): five Caliper .cali files whose names
// say nothing of the process count; p comes from each file's globals (mpi.world.size).
const CALI = new URL("../data/cali/mpi_scaling_cali/", import.meta.url).pathname;

test("a folder of Caliper .cali profiles: p from their globals, read in the worker, ranked as the command ranks it", async () => {
  const p = await open();
  await watch(p.page);
  await p.page.setInputFiles("#runs-folder", CALI);
  await settled(p.page);
  const { page, context, problems } = p;
  const read = await page.locator("#runs-read").textContent();
  assert.match(read, /^5 runs read/, read);
  assert.match(read, /mpi\.world\.size/, `where p came from is said: ${read}`);
  const t = await text(page);
  assert.match(t, /^PARAMETER p$/m);
  // "POINTS ( 27 )": one line a point, its value in brackets.
  const points = [...t.matchAll(/^POINTS (.+)$/gm)].map((m) => (m[1].match(/\d+(\.\d+)?/g) ?? []).map(Number));
  assert.deepEqual(points.flat().sort((a, b) => a - b), [27, 64, 125, 216, 343], t.slice(0, 400));
  const v = cli([CALI]);
  assert.equal(v.runs.count, 5);
  assert.equal(new Set(regions(t)).size, v.regions.length);
  await sameAsCommand(page, [CALI]);
  await page.locator("#runs-drop").scrollIntoViewIfNeeded();
  await shot(page, "runs-cali");
  assert.deepEqual(problems.consoleErrors, []);
  assert.deepEqual(problems.foreignRequests, []);
  await context.close();
});

const TAU = new URL("../data/tau-cpi-mpi/", import.meta.url).pathname;
const HPC = new URL("../data/hpctoolkit/hpctoolkit-cpi-database/", import.meta.url).pathname;
const CALI_JSON = new URL("../data/caliper-json/lulesh-annotation-profile.json", import.meta.url).pathname;

test("TAU folders, an HPCToolkit database and a Caliper JSON file: read in the worker as the command reads them", async () => {
  // Two TAU runs made of Hatchet's four cpi ranks: cpi.p2 (ranks 0 and 1) and cpi.p4.
  const study = await mkdtemp(join(tmpdir(), "scalewise-tau-"));
  for (const [run, ranks] of [["cpi.p2", 2], ["cpi.p4", 4]]) {
    await mkdir(join(study, run));
    for (let r = 0; r < ranks; r++) await writeFile(join(study, run, `profile.${r}.0.0`), await readFile(join(TAU, `profile.${r}.0.0`)));
  }
  const { context, page, problems } = await open();
  try {
    await watch(page);
    await page.setInputFiles("#runs-folder", study);
    await settled(page);
    let read = await page.locator("#runs-read").textContent();
    assert.match(read, /^2 runs read \(TAU profiles, 2 to 4 locations\): TIME, exclusive values/, read);
    assert.match(read, /Parameters: p from the folder name\./, read);
    const v = cli([study]);
    assert.equal(new Set(regions(await text(page))).size, v.regions.length);
    await sameAsCommand(page, [study]);

    await watch(page);
    await page.setInputFiles("#runs-folder", HPC);
    await settled(page);
    read = await page.locator("#runs-read").textContent();
    assert.match(read, /^1 run read \(HPCToolkit profiles, 4 locations each\): CPUTIME \(s\), exclusive values/, read);
    assert.match(read, /p from hpctoolkit\.ranks/, read);
    await sameAsCommand(page, [HPC]);
    // Read again inclusive: the page offers the choice for these runs as for Score-P's.
    await watch(page);
    await page.selectOption("#runs-inclusive", "inclusive");
    await settled(page);
    assert.match(await page.locator("#runs-read").textContent(), /CPUTIME \(s\), inclusive values/);

    await watch(page);
    await page.setInputFiles("#extrap-file", CALI_JSON);
    await settled(page);
    read = await page.locator("#runs-read").textContent();
    assert.match(read, /^1 run read \(Caliper JSON profiles, 8 processes each\)/, read);
    await sameAsCommand(page, [CALI_JSON]);
    await shot(page, "runs-profilers");
    assert.deepEqual(problems.consoleErrors, []);
    assert.deepEqual(problems.foreignRequests, []);
  } finally {
    await context.close();
    await rm(study, { recursive: true, force: true });
  }
});

test("an experiment's JSON chosen is its text as it is; a file of no format read is named as what it looks like", async () => {
  const { context, page, problems } = await open();
  const file = new URL("../data/extrap/app.json", import.meta.url).pathname;
  await page.setInputFiles("#extrap-file", file);
  const want = await readFile(file, "utf8");
  await page.waitForFunction((n) => document.getElementById("extrap-text")?.value.length === n || document.getElementById("extrap-text-show"), want.length);
  assert.equal(await text(page), want);
  const dir = await mkdtemp(join(tmpdir(), "scalewise-odd-"));
  try {
    const pdf = join(dir, "report.pdf");
    await writeFile(pdf, "%PDF-1.7\n%binary");
    await page.setInputFiles("#extrap-file", pdf);
    await page.waitForSelector("#runs-error");
    assert.match(await page.locator("#runs-error").textContent(), /report\.pdf: a PDF document, not a profile/);
    // The experiment before stays.
    assert.equal(await text(page), want);
    assert.deepEqual(problems.consoleErrors, []);
  } finally {
    await context.close();
    await rm(dir, { recursive: true, force: true });
  }
});
