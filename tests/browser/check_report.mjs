// Loads an sgfaudit HTML report in headless Chromium and fails (exit 1) on:
// a console error or page error, a dialog (alert, confirm), a script
// element, a request for anything but the report itself, an in-page link
// (#anchor) with no target, a page wider than a phone's 390 px, a relative link to a file that does not exist,
// and, when EXPECT_TEXT is set, a page whose text does not show it.
// Writes a screenshot of the top of the page and, when the report has game
// sections, one of the first section. Prints one JSON line of what it saw.
//
// node check_report.mjs REPORT.html SCREENSHOT_PREFIX
// CHROMIUM (default /usr/bin/chromium) names the browser.
import { chromium } from "playwright-core";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [report, shots] = process.argv.slice(2);
if (!report || !shots) {
  console.error("usage: node check_report.mjs REPORT.html SCREENSHOT_PREFIX");
  process.exit(2);
}
const url = pathToFileURL(resolve(report)).href;
const problems = [];
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console error: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("dialog", async (d) => {
    problems.push(`a dialog opened: ${d.message()}`);
    await d.dismiss();
  });
  page.on("request", (r) => {
    if (r.url() !== url) problems.push(`request for ${r.url()}`);
  });
  const started = Date.now();
  await page.goto(url, { waitUntil: "load" });
  const loadMs = Date.now() - started;
  const seen = await page.evaluate(() => {
    const anchors = [...document.querySelectorAll('a[href^="#"]')].map((a) =>
      a.getAttribute("href").slice(1),
    );
    const broken = anchors.filter((id) => !document.getElementById(decodeURIComponent(id)));
    const files = [...document.querySelectorAll("a[href]")]
      .map((a) => a.getAttribute("href"))
      .filter((h) => !h.startsWith("#"));
    return {
      title: document.title,
      scripts: document.scripts.length,
      handlers: [...document.querySelectorAll("*")].filter((e) =>
        [...e.attributes].some((a) => a.name.startsWith("on")),
      ).length,
      anchors: anchors.length,
      broken,
      files,
      sections: document.querySelectorAll("section.game").length,
      svgs: document.querySelectorAll("svg").length,
      pwned: document.body.hasAttribute("data-pwned") || "pwned" in window,
      text: document.body.innerText,
    };
  });
  const expected = process.env.EXPECT_TEXT;
  if (expected && !seen.text.includes(expected)) problems.push(`the page does not show ${expected}`);
  if (seen.scripts > 0) problems.push(`${seen.scripts} script elements`);
  if (seen.handlers > 0) problems.push(`${seen.handlers} elements with an on* attribute`);
  if (seen.pwned) problems.push("a record's text ran as code");
  for (const id of seen.broken) problems.push(`link to #${id}, which no element has`);
  const base = dirname(resolve(report));
  const missing = seen.files.filter((h) => !existsSync(resolve(base, decodeURIComponent(h))));
  for (const h of missing) problems.push(`link to ${h}, which does not exist`);
  await page.screenshot({ path: `${shots}-top.png` });
  // On a phone the page must not scroll sideways (wide tables scroll
  // inside themselves).
  await page.setViewportSize({ width: 390, height: 844 });
  const phoneWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  if (phoneWidth > 390) problems.push(`on a 390 px phone the page is ${phoneWidth} px wide`);
  await page.screenshot({ path: `${shots}-phone.png` });
  await page.setViewportSize({ width: 1280, height: 1600 });
  const first = page.locator("section.game").first();
  if (seen.sections > 0) {
    await first.scrollIntoViewIfNeeded();
    await first.screenshot({ path: `${shots}-game.png` });
  }
  console.log(
    JSON.stringify({
      report,
      load_ms: loadMs,
      title: seen.title,
      anchors: seen.anchors,
      file_links: seen.files.length,
      sections: seen.sections,
      svgs: seen.svgs,
      problems,
    }),
  );
} finally {
  await browser.close();
}
process.exit(problems.length ? 1 : 0);
