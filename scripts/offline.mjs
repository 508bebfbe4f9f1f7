// The last step of scripts/build-site.sh: copies the site's own static files into dist/
// (site.js, embed.js, the web app manifest and its icons), then writes dist/sw.js from
// static/sw.js with this build's file list and a version drawn from every file's content, so
// each build gets a new service worker and cache, and an unchanged build keeps its own.
import { readFile, writeFile, readdir, copyFile } from "node:fs/promises";
import { createHash } from "node:crypto";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { availableParallelism } from "node:os";
import { minify } from "terser";

const root = new URL("../", import.meta.url);
// The directory to complete: dist/ by default (build-site.sh passes the one it is filling).
const dist = new URL(`${process.argv[2] ?? "dist"}/`, root);
const staticDir = new URL("static/", root);

// Full-line comments and indentation go: the scripts load with every page and count toward
// its size budget.
const strip = (js) => js.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("//")).join("\n") + "\n";

for (const name of ["site.js", "embed.js"]) {
  await writeFile(new URL(name, dist), strip(await readFile(new URL(name, staticDir), "utf8")));
}
for (const name of ["manifest.webmanifest", "icon.svg", "icon-192.png", "icon-512.png"]) {
  await copyFile(new URL(name, staticDir), new URL(name, dist));
}

// Trunk's integrity digests in the HTML are brought up to date for each file changed below.
const html = (await readdir(dist)).filter((f) => f.endsWith(".html"));
const pages = Object.fromEntries(await Promise.all(html.map(async (f) => [f, await readFile(new URL(f, dist), "utf8")])));
const changed = (f, bytes) => {
  const digest = "sha384-" + createHash("sha384").update(bytes).digest("base64");
  const escaped = f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const sri = new RegExp(`(href=["']?(?:\\./)?${escaped}["']?[^>]*?integrity=["']?)sha(256|384|512)-[A-Za-z0-9+/=]+`, "g");
  for (const page of Object.keys(pages)) pages[page] = pages[page].replace(sri, `$1${digest}`);
};

// Every script minified with terser (trunk's own minifier fails on the wasm-bindgen glue):
// about 2 KB gzipped off each page. The glue of a page is an ES module (its exports are
// kept); the simulation worker's is a classic script whose top-level names are its API.
for (const f of (await readdir(dist)).filter((f) => f.endsWith(".js") && f !== "sw.js")) {
  let code = await readFile(new URL(f, dist), "utf8");
  // Trunk's worker loader calls the glue with the wasm's path alone, which wasm-bindgen
  // 0.2.9x and later take with a console warning ("using deprecated parameters"): it is
  // passed the way the glue asks, as { module_or_path }.
  if (f.endsWith("_loader.js")) code = code.replace(/wasm_bindgen\(("[^"]+_bg\.wasm")\)/g, "wasm_bindgen({ module_or_path: $1 })");
  const module = /^export /m.test(code);
  const out = await minify(code, { module, compress: true, mangle: true, format: { comments: false } });
  await writeFile(new URL(f, dist), out.code);
  changed(f, out.code);
}

// Each page's wasm (the one its HTML preloads; not the workers', built for speed at -O3,
// which no page names) optimised for size once more by binaryen: read back from trunk's
// -Oz output, the module shrinks by about 150 bytes gzipped more a page (measured on the
// speed-up page: 292,628 -> 292,447), which more passes within trunk's one run of wasm-opt
// do not give (292,579). The target features section trunk leaves tells wasm-opt which
// features the code uses; this run then strips it. Both runs (trunk's, from each HTML's
// data-wasm-opt-params, and this one) pass --low-memory-unused: the optimiser may then fold
// a pointer's small constant offsets into the loads and stores, which holds because nothing
// lives in the lowest kilobyte of these modules' memory (Rust's wasm32 stack starts at 1 MB
// and grows down, data sits above it; only a stack 1023 KB deep would reach it). About
// 1.6 KB gzipped a page (the Bottlenecks page's wasm: 290,471 -> 288,804, wasm-opt 132).
// The runs are one thread each for the most part: as many run at once as there are cores.
const preloaded = (f) => Object.values(pages).some((text) => text.includes(f));
const queue = (await readdir(dist)).filter((f) => f.endsWith("_bg.wasm") && preloaded(f));
const optimise = async () => {
  for (let f = queue.shift(); f; f = queue.shift()) {
    const path = new URL(f, dist).pathname;
    await promisify(execFile)("wasm-opt", ["-Oz", "--low-memory-unused", "--strip-target-features", path, "-o", path]);
    changed(f, await readFile(path));
  }
};
await Promise.all(Array.from({ length: availableParallelism() }, optimise));
for (const [f, text] of Object.entries(pages)) await writeFile(new URL(f, dist), text);

const files = (await readdir(dist)).filter((f) => f !== "sw.js").sort();
const hash = createHash("sha256");
for (const f of files) hash.update(f).update("\0").update(await readFile(new URL(f, dist)));
const version = hash.digest("hex").slice(0, 16);
// "./" is the directory address, which a server answers with index.html.
const list = ["./", ...files].map((f) => JSON.stringify(f)).join(",");
const sw = strip(await readFile(new URL("sw.js", staticDir), "utf8"));
if (!sw.includes('"@VERSION@"') || !sw.includes('"@FILES@"')) throw new Error("static/sw.js lacks its placeholders");
const worker = sw.replace('"@VERSION@"', JSON.stringify(version)).replace('"@FILES@"', list);
await writeFile(new URL("sw.js", dist), (await minify(worker, { compress: true, mangle: true })).code);
console.log(`offline: ${files.length} files precached, version ${version}`);
