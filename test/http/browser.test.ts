import { existsSync, mkdirSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app.ts";
import { freshPgDatabase, type PgTestDatabase } from "../helpers/db.ts";
import { HOSTILE_TITLE, SHA, seedHistory } from "./seed.ts";

// Headless Chromium (Debian's) over the real server: index -> repo history -> revision diff, by clicking.
const SHOTS = "test-results/http";
const CHROMIUM = process.env.HUBWATCH_CHROMIUM ?? "/usr/bin/chromium";
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

let db: PgTestDatabase;
let app: FastifyInstance;
let browser: Browser;
let base: string;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `browser tests need Chromium at ${CHROMIUM}: apt-get install -y chromium (or set HUBWATCH_CHROMIUM)`,
    );
  }
  db = await freshPgDatabase();
  await seedHistory(db.db);
  app = await createApp({ db: db.db });
  base = await app.listen({ port: 0, host: "127.0.0.1" });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await db?.close();
});

describe("history pages in a browser", () => {
  it("clicks from the index to a repo and a revision, with hostile content shown as text", async () => {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 1200, height: 900 },
    });
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(`${base}/`);
    expect(await page.locator("h1").textContent()).toBe("Watched repos");
    await page.screenshot({ path: `${SHOTS}/1-index.png`, fullPage: true });

    await page.click('a[href="/repos/acme/tiny-lm"]');
    await page.waitForURL(/\/repos\/acme\/tiny-lm$/);
    expect(await page.locator("h1").textContent()).toBe("acme/tiny-lm");
    // The hostile commit title is visible as literal text, and did not become markup.
    await expect.poll(() => page.getByText(HOSTILE_TITLE, { exact: false }).count()).toBeGreaterThan(0);
    expect(await page.title()).not.toContain("pwned");
    await page.screenshot({ path: `${SHOTS}/2-repo.png`, fullPage: true });

    await page.click(`a[href="/repos/acme/tiny-lm/revisions/${SHA.C}"]`);
    await page.waitForURL(new RegExp(`/revisions/${SHA.C}$`));
    // biome-ignore lint/performance/useDomNodeTextContent: what the reader sees is the point here.
    const text = await page.locator("main").innerText();
    expect(text).toContain("<script>window.pwned=1</script>");
    expect(await page.locator("main script, main img[src=x]").count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/3-revision-template.png`, fullPage: true });

    await page.goto(`${base}/repos/acme/tiny-lm/revisions/${SHA.B}`);
    expect(await page.locator("table.changeset").count()).toBe(1);
    await page.screenshot({ path: `${SHOTS}/4-revision-config.png`, fullPage: true });
    await context.close();
  });

  it("runs no script even with JavaScript on", async () => {
    const context = await browser.newContext({ javaScriptEnabled: true });
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(`${base}/repos/acme/tiny-lm/revisions/${SHA.C}`);
    await page.goto(`${base}/repos/acme/tiny-lm`);
    expect(dialogs).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(await page.title()).toBe("acme/tiny-lm · hubwatch");
    await context.close();
  });
});
