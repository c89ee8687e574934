import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { estimate } from "../../src/core/estimator/estimate.ts";
import { createApp } from "../../src/http/app.ts";
import { upsertEstimate } from "../../src/repositories/estimates.repository.ts";
import { addRepo } from "../../src/repositories/repos.repository.ts";
import { insertPendingRevisions, markRevisionDone } from "../../src/repositories/revisions.repository.ts";
import { HISTORY_PAGE_SIZE } from "../../src/services/http/history.ts";
import { freshPgDatabase, type PgTestDatabase } from "../helpers/db.ts";

// Keyset pagination of a repo's history page: ?before=SHA starts below that revision, so a page stays the
// same while new revisions arrive, and each revision is shown on exactly one page.
const sha = (n: number) => n.toString(16).padStart(40, "0");
const config = (layers: number) => ({
  architectures: ["LlamaForCausalLM"],
  model_type: "llama",
  hidden_size: 256,
  intermediate_size: 512,
  num_attention_heads: 4,
  num_key_value_heads: 4,
  num_hidden_layers: layers,
  vocab_size: 1000,
  max_position_embeddings: 2048,
  torch_dtype: "bfloat16",
});

let db: PgTestDatabase;
let app: FastifyInstance;
let repoId: number;
const TOTAL = HISTORY_PAGE_SIZE * 2 + 5;

async function addRevisions(from: number, to: number) {
  const rows = await insertPendingRevisions(
    db.db,
    repoId,
    Array.from({ length: to - from + 1 }, (_, k) => ({
      sha: sha(from + k),
      title: `commit ${from + k}`,
      committedAt: new Date(Date.UTC(2026, 0, 1) + (from + k) * 3_600_000),
    })),
  );
  for (const r of rows) {
    const n = Number.parseInt(r.sha, 16);
    // Every third revision has no estimate, so a comparison may reach past the page's end.
    if (n % 3 !== 0) {
      const e = estimate(config(2 + (n % 5)));
      await upsertEstimate(db.db, {
        revisionId: r.id,
        estimatorVersion: e.estimator_version,
        paramsTotal: e.params.total,
        result: e,
      });
    }
    await markRevisionDone(db.db, r.id);
  }
}

/** The revision shas a page lists, in order. */
const listed = (body: string) =>
  [...body.matchAll(/<section class="rev" id="r-([0-9a-f]{40})">/g)].map((m) => m[1]);
const olderLink = (body: string) =>
  /<a rel="next" href="([^"]+)">/.exec(body)?.[1]?.replaceAll("&amp;", "&") ?? null;

beforeAll(async () => {
  db = await freshPgDatabase();
  repoId = (await addRepo(db.db, "acme/long-history")).repo.id;
  await addRevisions(1, TOTAL);
  app = await createApp({ db: db.db });
});
afterAll(async () => {
  await app?.close();
  await db?.close();
});

describe("history page pagination", () => {
  it("walks every revision once, newest first, page by page", async () => {
    const seen: string[] = [];
    let url: string | null = "/repos/acme/long-history";
    let pages = 0;
    while (url) {
      const res = await app.inject(url);
      expect(res.statusCode).toBe(200);
      const shas = listed(res.body);
      expect(shas.length).toBeLessThanOrEqual(HISTORY_PAGE_SIZE);
      // Charts and advisories only on the first page.
      expect(res.body.includes('id="history"')).toBe(pages === 0);
      seen.push(...(shas as string[]));
      url = olderLink(res.body);
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(Array.from({ length: TOTAL }, (_, k) => sha(TOTAL - k)));
  });

  it("compares a page's oldest revision with the estimated one below the page", async () => {
    const first = (await app.inject("/repos/acme/long-history")).body;
    const oldest = listed(first).at(-1) as string;
    const n = Number.parseInt(oldest, 16);
    // The nearest earlier revision with an estimate (every third has none).
    const below = [n - 1, n - 2].find((k) => k % 3 !== 0) as number;
    const section = first.slice(first.indexOf(`id="r-${oldest}"`));
    expect(section).toContain(`Estimate vs <code>${sha(below).slice(0, 12)}</code>`);
  });

  it("keeps an older page the same while new revisions arrive", async () => {
    const first = (await app.inject("/repos/acme/long-history")).body;
    const next = olderLink(first) as string;
    const before = listed((await app.inject(next)).body);
    await addRevisions(TOTAL + 1, TOTAL + 3);
    const after = listed((await app.inject(next)).body);
    expect(after).toEqual(before);
    expect(listed((await app.inject("/repos/acme/long-history")).body)[0]).toBe(sha(TOTAL + 3));
  });

  it("answers 404 for a revision it does not know or a malformed sha", async () => {
    const unknown = await app.inject(`/repos/acme/long-history?before=${"f".repeat(40)}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain("No revision ffffffffffff is recorded for acme/long-history.");
    expect((await app.inject("/repos/acme/long-history?before=abc")).statusCode).toBe(404);
    expect((await app.inject(`/repos/acme/none?before=${sha(1)}`)).statusCode).toBe(404);
  });
});
