import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { FastifyInstance } from "fastify";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app.ts";
import { freshPgDatabase, type PgTestDatabase } from "../helpers/db.ts";
import { seedHistory } from "./seed.ts";
import { SHOW, seedShowcase } from "./seed-showcase.ts";

// Each page kind in Debian's Chromium at a phone width and a desktop width, light and dark: a
// screenshot of each, and axe-core (injected) finding no serious or critical accessibility violation.
// HUBWATCH_DOCS_SHOTS=1 also writes the small PNGs docs/HTTP.md shows (docs/img/).

const SHOTS = "test-results/screens";
const DOCS = "docs/img";
const CHROMIUM = process.env.HUBWATCH_CHROMIUM ?? "/usr/bin/chromium";
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
];
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

const PAGES = [
  { name: "index", path: "/", h1: "Watched repos" },
  { name: "repo", path: `/repos/${SHOW.repo}`, h1: SHOW.repo },
  { name: "revision", path: `/repos/${SHOW.repo}/revisions/${SHOW.sha(5)}`, h1: SHOW.sha(5).slice(0, 12) },
] as const;
const WIDTHS = [390, 1280] as const;
/** The shots docs/HTTP.md shows: every page kind, desktop light and phone dark. */
const DOC_SHOTS = new Set(["1280-light", "390-dark"]);
const SCHEMES = ["light", "dark"] as const;

let db: PgTestDatabase;
let app: FastifyInstance;
let browser: Browser;
let base: string;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  if (!existsSync(CHROMIUM))
    throw new Error(
      `browser tests need Chromium at ${CHROMIUM}: apt-get install -y chromium (or set HUBWATCH_CHROMIUM)`,
    );
  db = await freshPgDatabase();
  await seedHistory(db.db);
  await seedShowcase(db.db);
  app = await createApp({ db: db.db, rateLimit: false });
  base = await app.listen({ port: 0, host: "127.0.0.1" });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await db?.close();
});

type Violation = { id: string; impact: string | null; help: string; nodes: { target: unknown }[] };

describe.each(PAGES)("$name page", (pg) => {
  it.each(WIDTHS.flatMap((w) => SCHEMES.map((s) => [w, s] as const)))(
    "at %i px, %s: screenshot, no horizontal overflow, no serious axe violation",
    async (width, scheme) => {
      // bypassCSP: the pages forbid every script, axe included; the page itself still runs none.
      const context = await browser.newContext({
        viewport: { width, height: 900 },
        colorScheme: scheme,
        bypassCSP: true,
      });
      const page = await context.newPage();
      const res = await page.goto(`${base}${pg.path}`);
      expect(res?.status()).toBe(200);
      // biome-ignore lint/performance/useDomNodeTextContent: what the reader sees is the point here.
      expect(await page.locator("h1").innerText()).toContain(pg.h1);
      if (pg.name === "revision")
        // biome-ignore lint/performance/useDomNodeTextContent: what the reader sees is the point here.
        expect(await page.locator("aside.callout").innerText()).toMatch(
          /rendered prompt changes:[\s\S]*end-of-sequence token changes:/,
        );
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, "page wider than the viewport").toBeLessThanOrEqual(0);
      await page.screenshot({ path: `${SHOTS}/${pg.name}-${width}-${scheme}.png`, fullPage: true });
      if (process.env.HUBWATCH_DOCS_SHOTS && DOC_SHOTS.has(`${width}-${scheme}`)) {
        mkdirSync(DOCS, { recursive: true });
        await page.screenshot({ path: `${DOCS}/${pg.name}-${width}-${scheme}.png` });
      }
      await page.addScriptTag({ content: AXE });
      const violations = await page.evaluate(async () => {
        const axe = (
          window as unknown as { axe: { run: (o: unknown) => Promise<{ violations: unknown[] }> } }
        ).axe;
        return (await axe.run({ resultTypes: ["violations"] })).violations;
      });
      const bad = (violations as Violation[]).filter(
        (v) => v.impact === "serious" || v.impact === "critical",
      );
      expect(
        bad.map(
          (v) =>
            `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(v.nodes.slice(0, 3).map((n) => n.target))}`,
        ),
      ).toEqual([]);
      await context.close();
    },
  );
});
