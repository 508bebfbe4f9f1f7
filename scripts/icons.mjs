// Renders static/icon.svg (drawn by hand for scalewise) to the PNG icons the web app
// manifest lists, with Debian's Chromium through playwright-core. The PNGs are committed;
// run this again after changing the SVG: node scripts/icons.mjs
import { readFile } from "node:fs/promises";
import { chromium } from "playwright-core";

const svg = await readFile(new URL("../static/icon.svg", import.meta.url), "utf8");
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
for (const size of [192, 512]) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  await page.setContent(`<style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style>${svg}`);
  await page.screenshot({ path: new URL(`../static/icon-${size}.png`, import.meta.url).pathname, omitBackground: true });
  await page.close();
}
await browser.close();
