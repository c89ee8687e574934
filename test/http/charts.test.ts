import { and, asc, eq, isNotNull } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Estimate } from "../../src/core/estimator/estimate.ts";
import { estimates, repos, revisions } from "../../src/db/schema/index.ts";
import { createApp } from "../../src/http/app.ts";
import { freshPgDatabase, type PgTestDatabase } from "../helpers/db.ts";
import { SHA, seedHistory } from "./seed.ts";

// The repo page's charts are drawn from the stored estimates: every point's value is the stored one.

let db: PgTestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  db = await freshPgDatabase();
  await seedHistory(db.db);
  app = await createApp({ db: db.db });
});
afterAll(async () => {
  await app?.close();
  await db?.close();
});

type Point = { series: string; sha: string; value: number };

function chartPoints(body: string): Point[] {
  const re =
    /<circle class="pt"[^>]*data-series="([a-z_]+)" data-sha="([0-9a-f]{40})" data-value="([0-9.e+]+)"/g;
  return [...body.matchAll(re)].map((m) => ({ series: m[1] ?? "", sha: m[2] ?? "", value: Number(m[3]) }));
}

describe("history charts", () => {
  it("plot one point per estimated revision per series, equal to the stored estimate", async () => {
    const body = (await app.inject("/repos/acme/tiny-lm")).body;
    const points = chartPoints(body);
    const rows = await db.db
      .select({ sha: revisions.sha, r: estimates.result })
      .from(estimates)
      .innerJoin(revisions, eq(revisions.id, estimates.revisionId))
      .innerJoin(repos, eq(repos.id, revisions.repoId))
      .where(and(eq(repos.name, "acme/tiny-lm"), isNotNull(estimates.result)))
      .orderBy(asc(revisions.seq));
    expect(rows).toHaveLength(4);
    const expected: Point[] = rows.flatMap(({ sha, r: stored }) => {
      const r = stored as Estimate;
      return [
        { series: "params", sha, value: r.params.total },
        { series: "weights", sha, value: r.weights.bytes },
        { series: "full_finetune", sha, value: r.memory.full_finetune.bytes },
        { series: "lora", sha, value: r.memory.lora.bytes },
        { series: "serve_kv", sha, value: r.memory.serve.bytes + r.memory.kv_cache.bytes },
      ];
    });
    const key = (p: Point) => `${p.series} ${p.sha}`;
    expect(points.map(key).sort()).toEqual(expected.map(key).sort());
    for (const p of expected) expect(points.find((q) => key(q) === key(p))?.value).toBe(p.value);
    // The vocabulary growth at B shows: B's parameter point sits higher than A's.
    const y = (sha: string) =>
      Number(new RegExp(`cy="([0-9.]+)" r="4" data-series="params" data-sha="${sha}"`).exec(body)?.[1]);
    expect(y(SHA.B)).toBeLessThan(y(SHA.A));
  });

  it("marks the advisory opened at B and closed at D, names each point, and draws the fit map", async () => {
    const body = (await app.inject("/repos/acme/tiny-lm")).body;
    expect(body).toContain('<g class="marker advisory_opened">');
    expect(body).toContain("<title>x_HUBWATCH-2026-0001 closed</title>");
    expect(body).toContain(`<title>${SHA.B.slice(0, 12)}: parameters `);
    expect(body).toMatch(/<table class="fit-map">/);
    expect(body).toContain(`Fit map at <a href="/repos/acme/tiny-lm/revisions/${SHA.D}">`);
    expect(body).not.toMatch(/<script|style="/);
    expect(body).toContain("<summary>Charted values (4 revisions)</summary>");
  });

  it("says there is nothing to chart before any estimate", async () => {
    const body = (await app.inject("/repos/acme/other")).body;
    expect(body).toContain("No estimate yet, so nothing to chart.");
  });
});
