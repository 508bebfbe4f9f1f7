// An embed on another site in a browser that blocks third-party storage (issue 63): a
// documentation page on one origin (localhost) holds the calculators' iframes from another
// (127.0.0.1), in a Chromium profile whose "block third-party cookies" setting is on, as in
// private windows and several browsers' defaults. The iframe's localStorage, sessionStorage
// and IndexedDB then refuse it. The calculator must still open with the link's inputs,
// compute, keep what the reader types in the tab, say once that nothing is saved, and throw
// nothing (a panic in the wasm would leave it at "Opening your inputs…").
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, mkdir, writeFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { serveDist, shot, SUBPATH } from "./harness.mjs";

const extra = {};
let server, profile, context;
before(async () => {
  server = await serveDist({ extra });
  profile = await mkdtemp(join(tmpdir(), "scalewise-blocked-"));
  await mkdir(join(profile, "Default"), { recursive: true });
  // Chromium's own setting (chrome://settings/cookies: "Block third-party cookies"), which
  // also denies a third-party frame its storage.
  await writeFile(join(profile, "Default", "Preferences"), JSON.stringify({
    profile: { block_third_party_cookies: true, cookie_controls_mode: 1, default_content_setting_values: { cookies: 1 } },
  }));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
});
after(async () => { await context?.close(); await server?.close(); await rm(profile, { recursive: true, force: true }); });

test("embedded on another site with third-party storage blocked, two calculators open, compute and keep edits in the tab", async () => {
  const port = new URL(server.origin).port;
  const frameBase = `${server.origin}${SUBPATH}`;
  extra["blocked-host.html"] = ["text/html; charset=utf-8",
    `<!DOCTYPE html><html lang="en"><head><title>Docs</title><link rel="icon" href="data:,"></head><body><h1>Docs</h1>
     <iframe id="a" title="speed-up" src="${frameBase}speedup.html?embed=1#/speedup" width="900" height="900"></iframe>
     <iframe id="b" title="communication" src="${frameBase}comm.html?embed=1#/comm" width="900" height="900"></iframe>
     </body></html>`];
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  await page.goto(`http://localhost:${port}${SUBPATH}blocked-host.html`);
  const a = page.frameLocator("#a"), b = page.frameLocator("#b");
  // The setting is in force: the frame's storage is refused (else this test tests nothing).
  const frame = page.frames().find((f) => f.url().startsWith(frameBase + "speedup.html"));
  assert.ok(frame, "the speed-up iframe");
  const refused = await frame.evaluate(() => { try { return localStorage.length < 0; } catch (e) { return e.name; } });
  assert.equal(refused, "SecurityError", "third-party storage is blocked in this profile");
  // Both calculators open and compute.
  await a.locator("main.page h1").waitFor({ timeout: 20000 });
  await b.locator("main.page h1").waitFor({ timeout: 20000 });
  await a.locator("#forecast tbody tr").first().waitFor();
  await b.locator("#best-model").waitFor();
  // An edit is computed and stays in the tab.
  await a.locator("#target").fill("77");
  await frame.waitForFunction(() => [...document.querySelectorAll("#forecast tbody tr td:first-child")].some((td) => td.textContent.trim() === "77"));
  assert.equal(await a.locator("#target").inputValue(), "77");
  // Said once, in words, that nothing is kept.
  const said = await a.locator("body").textContent();
  assert.match(said, /could not be saved in this browser/);
  assert.equal((said.match(/could not be saved in this browser/g) ?? []).length, 1, "said once");
  assert.doesNotMatch(said, /Opening your inputs/);
  await shot(page, "embed-storage-blocked");
  assert.deepEqual(errors, [], "nothing thrown, nothing logged as an error");
  await page.close();
  delete extra["blocked-host.html"];
});
