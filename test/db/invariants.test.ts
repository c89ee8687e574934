import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { createDatabase } from "../../src/db/client.ts";
import type { DatabaseHandle, Db } from "../../src/db/types.ts";
import {
  addRepo,
  createSubscription,
  getManifest,
  insertDelivery,
  insertEvent,
  insertPendingRevisions,
  listAdvisories,
  listRevisionsByRepo,
  makeEventId,
  openAdvisory,
  putArtifact,
  queryRows,
  recordAttempt,
  recordFinding,
  replaceManifest,
  upsertBadge,
  upsertChanges,
  upsertEstimate,
} from "../../src/repositories/index.ts";
import { drivers, type TestDatabase } from "../helpers/db.ts";

const sha = (n: number) => n.toString(16).padStart(40, "0");
const count = async (db: Db, table: string) =>
  (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${sql.identifier(table)}`))[0]!.n;

const open: DatabaseHandle[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.close()));
});

/** A second connection to the same database: a new pool for pg; PGlite has only the one. */
async function secondConnection(t: TestDatabase): Promise<Db> {
  if (!t.url) return t.db;
  const other = await createDatabase({ databaseUrl: t.url });
  open.push(other);
  return other.db;
}

describe.each(drivers)("natural keys on $name", ({ open: openDb }) => {
  async function setup() {
    const t = await openDb();
    open.push(t);
    return t;
  }

  it("a revision inserted twice is stored once", async () => {
    const { db } = await setup();
    const { repo } = await addRepo(db, "acme/model");
    const first = await insertPendingRevisions(db, repo.id, [
      { sha: sha(1) },
      { sha: sha(2), parentSha: sha(1) },
    ]);
    expect(first.map((r) => r.seq)).toEqual([1, 2]);
    const again = await insertPendingRevisions(db, repo.id, [{ sha: sha(1) }, { sha: sha(2) }]);
    expect(again).toEqual([]);
    expect((await listRevisionsByRepo(db, repo.id)).map((r) => r.sha)).toEqual([sha(1), sha(2)]);
    expect((await addRepo(db, "acme/model")).created).toBe(false);
  });

  it("concurrent upserts on separate connections never duplicate", async () => {
    const t = await setup();
    const other = await secondConnection(t);
    const [a, b] = await Promise.all([addRepo(t.db, "acme/race"), addRepo(other, "acme/race")]);
    expect([a.created, b.created].sort()).toEqual([false, true]);
    expect(a.repo.id).toBe(b.repo.id);
    const repoId = a.repo.id;

    const commits = Array.from({ length: 20 }, (_, i) => ({ sha: sha(100 + i), seq: i + 1 }));
    const inserted = await Promise.all([
      insertPendingRevisions(t.db, repoId, commits),
      insertPendingRevisions(other, repoId, commits),
    ]);
    expect(inserted[0].length + inserted[1].length).toBe(20);
    const revisionId = (await listRevisionsByRepo(t.db, repoId))[0]!.id;

    const change = { path: "config.json", kind: "modified", category: "config", summary: "x" } as const;
    await Promise.all([
      upsertChanges(t.db, revisionId, [change]),
      upsertChanges(other, revisionId, [{ ...change, summary: "y" }]),
      upsertEstimate(t.db, { revisionId, estimatorVersion: "1", paramsTotal: 7_000_000_000 }),
      upsertEstimate(other, { revisionId, estimatorVersion: "1", paramsTotal: 7_000_000_001 }),
      upsertBadge(t.db, repoId, "params", { label: "params", message: "7B" }),
      upsertBadge(other, repoId, "params", { message: "7B", label: "params" }),
      recordFinding(t.db, { repoId, kind: "gated", message: "gated" }),
      recordFinding(other, { repoId, kind: "gated", message: "gated again" }),
      replaceManifest(t.db, revisionId, [{ path: "a", oid: "1", size: 1 }]),
      replaceManifest(other, revisionId, [{ path: "a", oid: "1", size: 1 }]),
    ]);
    for (const table of ["changes", "estimates", "badges", "findings", "revision_files"]) {
      expect(await count(t.db, table), table).toBe(1);
    }
    expect(await count(t.db, "revisions")).toBe(20);
    expect(await count(t.db, "repos")).toBe(1);
    expect(await getManifest(t.db, revisionId)).toHaveLength(1);
  });

  it("an artifact is stored once across revisions and repos", async () => {
    const { db } = await setup();
    const content = JSON.stringify({ hidden_size: 4096, num_hidden_layers: 32 });
    const ids: number[] = [];
    for (const name of ["a/one", "b/two"]) {
      const { repo } = await addRepo(db, name);
      const revs = await insertPendingRevisions(db, repo.id, [{ sha: sha(1) }, { sha: sha(2) }]);
      ids.push(...revs.map((r) => r.id));
    }
    const hashes = await Promise.all(ids.map(() => putArtifact(db, content, "json")));
    expect(new Set(hashes).size).toBe(1);
    for (const id of ids) {
      await replaceManifest(db, id, [
        { path: "config.json", oid: "o", size: content.length, artifactHash: hashes[0] },
      ]);
    }
    expect(await count(db, "artifacts")).toBe(1);
    expect(await count(db, "revision_files")).toBe(4);
  });

  it("advisory ids allocated concurrently are distinct and sequential", async () => {
    const t = await setup();
    const other = await secondConnection(t);
    const { repo } = await addRepo(t.db, "acme/adv");
    const published = new Date("2026-03-01T00:00:00Z");
    const open1 = (db: Db, n: number) =>
      openAdvisory(db, {
        repoId: repo.id,
        introducedSha: sha(n),
        published,
        modified: published,
        record: (id) => ({ id, summary: `change ${n}` }),
      });
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => open1(i % 2 ? other : t.db, i)));
    const ids = results.map((r) => r.advisory.id).sort();
    expect(ids).toEqual(
      Array.from({ length: 12 }, (_, i) => `x_HUBWATCH-2026-${String(i + 1).padStart(4, "0")}`),
    );
    expect(results.every((r) => r.created && r.advisory.record.id === r.advisory.id)).toBe(true);

    // Racing to open the same advisory: one wins, the loser gets it back, and no number is burnt.
    const same = await Promise.all([open1(t.db, 99), open1(other, 99), open1(t.db, 99)]);
    expect(same.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(same.map((r) => r.advisory.id))).toEqual(new Set(["x_HUBWATCH-2026-0013"]));
    const next = await open1(t.db, 100);
    expect(next.advisory.id).toBe("x_HUBWATCH-2026-0014");
    expect((await listAdvisories(t.db, { limit: 100 })).items).toHaveLength(14);
  });

  it("webhook events are stored once, one delivery per (subscription, event), one attempt per number", async () => {
    const t = await setup();
    const other = await secondConnection(t);
    const sub = await createSubscription(t.db, {
      url: "http://127.0.0.1:9/hook",
      secret: "whsec_dGVzdA==",
      events: ["advisory.opened"],
    });
    const id = makeEventId("advisory.opened", "x_HUBWATCH-2026-0001");
    const [e1, e2] = await Promise.all([
      insertEvent(t.db, { id, type: "advisory.opened", payload: { n: 1 } }),
      insertEvent(other, { id, type: "advisory.opened", payload: { n: 2 } }),
    ]);
    expect([e1.created, e2.created].sort()).toEqual([false, true]);
    const made = await Promise.all([insertDelivery(t.db, sub.id, id), insertDelivery(other, sub.id, id)]);
    expect(made.sort()).toEqual([false, true]);
    expect(await count(t.db, "webhook_deliveries")).toBe(1);
    // Two runs of the same attempt's job (a duplicate BullMQ delivery): one records it, one does nothing.
    const attempt = (status: "failed" | "delivered") => ({
      subscriptionId: sub.id,
      eventId: id,
      attempt: 1,
      responseStatus: status === "delivered" ? 200 : 500,
      responseBody: null,
      error: null,
      durationMs: 5,
      status,
      nextAttemptAt: null,
    });
    const logged = await Promise.all([
      recordAttempt(t.db, attempt("failed")),
      recordAttempt(other, attempt("delivered")),
    ]);
    expect(logged.sort()).toEqual([false, true]);
    expect(await count(t.db, "webhook_attempts")).toBe(1);
  });
});
