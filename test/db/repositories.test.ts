import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "../../src/db/types.ts";
import * as r from "../../src/repositories/index.ts";
import { drivers, type TestDatabase } from "../helpers/db.ts";

const sha = (n: number) => n.toString(16).padStart(40, "0");

describe.each(drivers)("repositories on $name", ({ open }) => {
  let t: TestDatabase;
  let db: Db;
  let repoId: number;
  beforeAll(async () => {
    t = await open();
    db = t.db;
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    // Each test gets its own repo; removing it cascades to everything recorded under it.
    const name = `owner/m${Math.random().toString(36).slice(2, 8)}`;
    repoId = (await r.addRepo(db, name)).repo.id;
  });

  it("repos: poll bookkeeping, status, due list, removal cascades", async () => {
    const at = new Date("2026-01-02T03:04:05.678Z");
    const next = new Date("2026-01-02T04:00:00Z");
    const polled = await r.markRepoPolled(db, repoId, { lastSeenSha: sha(1), at, nextPollAt: next });
    expect(polled).toMatchObject({ lastSeenSha: sha(1), lastPolledAt: at, nextPollAt: next });
    expect(await r.setRepoStatus(db, repoId, "gated", "needs a token")).toMatchObject({
      status: "gated",
      statusDetail: "needs a token",
    });
    const due = await r.listReposDue(db, new Date("2026-01-02T03:30:00Z"));
    expect(due.map((x) => x.id)).not.toContain(repoId);
    expect((await r.listReposDue(db, next)).map((x) => x.id)).toContain(repoId);
    const repo = (await r.getRepoById(db, repoId))!;
    await r.insertPendingRevisions(db, repoId, [{ sha: sha(1) }]);
    expect(await r.removeRepo(db, repo.name)).toBe(true);
    expect(await r.getRepoByName(db, repo.name)).toBeNull();
    expect(await r.removeRepo(db, repo.name)).toBe(false);
  });

  it("revisions: queue order, status, parent lookup, force push", async () => {
    await r.insertPendingRevisions(db, repoId, [
      { sha: sha(1), title: "init", committedAt: new Date("2026-01-01T00:00:00Z") },
      { sha: sha(2), parentSha: sha(1) },
    ]);
    const appended = await r.insertPendingRevisions(db, repoId, [{ sha: sha(3), parentSha: sha(2) }]);
    expect(appended[0]!.seq).toBe(3);
    const first = (await r.nextPendingRevision(db, repoId))!;
    expect(first).toMatchObject({ sha: sha(1), title: "init", status: "pending" });
    expect(await r.markRevisionDone(db, first.id)).toMatchObject({ status: "done", error: null });
    const second = (await r.nextPendingRevision(db, repoId))!;
    expect(second.sha).toBe(sha(2));
    expect(await r.markRevisionFailed(db, second.id, "boom")).toMatchObject({
      status: "failed",
      error: "boom",
    });
    expect((await r.nextPendingRevision(db, repoId))!.sha).toBe(sha(3));
    expect(await r.countRevisionsByStatus(db, repoId)).toEqual({ pending: 1, done: 1, failed: 1 });

    expect((await r.getParentRevision(db, second))!.sha).toBe(sha(1));
    const third = (await r.getRevisionBySha(db, repoId, sha(3)))!;
    const flagged = await r.markForcePushedAway(db, repoId, [sha(2)]);
    expect(flagged.map((x) => x.sha)).toEqual([sha(2)]);
    expect(await r.markForcePushedAway(db, repoId, [sha(2)])).toEqual([]);
    // Parent sha still resolves to the recorded commit, even if it left upstream history.
    expect((await r.getParentRevision(db, third))!.sha).toBe(sha(2));
    const orphan = (await r.insertPendingRevisions(db, repoId, [{ sha: sha(4), parentSha: sha(99) }]))[0]!;
    expect((await r.getParentRevision(db, orphan))!.sha).toBe(sha(3));
    expect((await r.listRevisionsByRepo(db, repoId)).map((x) => x.sha)).toEqual([sha(1), sha(3), sha(4)]);
    expect(
      (
        await r.listRevisionsByRepo(db, repoId, { includeForcePushedAway: true, newestFirst: true, limit: 2 })
      ).map((x) => x.sha),
    ).toEqual([sha(4), sha(3)]);
    expect(await r.markRevisionPending(db, second.id)).toMatchObject({ status: "pending", error: null });
    await expect(r.insertPendingRevisions(db, repoId, [{ sha: "not-a-sha" }])).rejects.toThrow();
  });

  it("artifacts and manifests: content-addressed, manifest replaced exactly", async () => {
    const [rev] = await r.insertPendingRevisions(db, repoId, [{ sha: sha(1) }]);
    const text = "héllo";
    const hash = await r.putArtifact(db, text, "text");
    expect(hash).toBe(r.hashContent(text));
    expect(await r.getArtifact(db, hash)).toMatchObject({ content: text, size: 6, kind: "text" });
    expect(await r.getArtifact(db, "0".repeat(64))).toBeNull();
    expect((await r.getArtifacts(db, [hash, hash])).size).toBe(1);

    const big = 15_000_000_000;
    await r.replaceManifest(db, rev!.id, [
      { path: "config.json", oid: "a", size: 10, artifactHash: hash },
      { path: "model.safetensors", oid: "b", size: big, lfsOid: "c".repeat(64) },
    ]);
    await r.replaceManifest(db, rev!.id, [
      { path: "config.json", oid: "a2", size: 11 },
      { path: "tokenizer.json", oid: "d", size: 5 },
    ]);
    const manifest = await r.getManifest(db, rev!.id);
    expect(manifest.map((f) => [f.path, f.oid, f.artifactHash])).toEqual([
      ["config.json", "a2", null],
      ["tokenizer.json", "d", null],
    ]);
    await r.replaceManifest(db, rev!.id, [{ path: "w", oid: "x", size: big }]);
    expect((await r.getManifestEntry(db, rev!.id, "w"))!.size).toBe(big);
    await r.replaceManifest(db, rev!.id, []);
    expect(await r.getManifest(db, rev!.id)).toEqual([]);
  });

  it("changes: upsert and exact replace", async () => {
    const [rev] = await r.insertPendingRevisions(db, repoId, [{ sha: sha(1) }]);
    const base = { path: "config.json", kind: "modified", category: "config", summary: "a" } as const;
    const detail = {
      type: "json" as const,
      changes: [{ path: "$.hidden_size", op: "update" as const, before: 4096, after: 8192 }],
    };
    await r.upsertChanges(db, rev!.id, [
      { ...base, detail },
      { ...base, path: "chat.jinja", category: "chat_template" },
    ]);
    await r.upsertChanges(db, rev!.id, [{ ...base, summary: "b", detail, promptChanged: false }]);
    let list = await r.listChangesByRevision(db, rev!.id);
    expect(list.map((c) => [c.path, c.summary])).toEqual([
      ["chat.jinja", "a"],
      ["config.json", "b"],
    ]);
    expect(list[1]!.detail).toEqual(detail);
    await r.replaceChanges(db, rev!.id, [{ ...base, summary: "c", promptChanged: true }]);
    list = await r.listChangesByRevision(db, rev!.id);
    expect(list.map((c) => [c.path, c.summary, c.promptChanged])).toEqual([["config.json", "c", true]]);
  });

  it("behaviour changes: exact replace per revision, rows kept by (revision, kind)", async () => {
    const [rev, other] = await r.insertPendingRevisions(db, repoId, [{ sha: sha(1) }, { sha: sha(2) }]);
    const values = (before: string, after: string) => ({
      type: "values" as const,
      changes: [],
      before,
      after,
    });
    const eos = { kind: "eos_token" as const, summary: "EOS token changed", detail: values("2", "32000") };
    const dtype = { kind: "torch_dtype" as const, summary: "torch_dtype changed", detail: values("a", "b") };
    await r.replaceBehaviorChanges(db, rev!.id, [eos, dtype]);
    await r.replaceBehaviorChanges(db, other!.id, [dtype]);
    const first = await r.listBehaviorChangesByRevision(db, rev!.id);
    expect(first.map((b) => [b.kind, b.summary, b.detail])).toEqual([
      ["eos_token", "EOS token changed", values("2", "32000")],
      ["torch_dtype", "torch_dtype changed", values("a", "b")],
    ]);
    await r.replaceBehaviorChanges(db, rev!.id, [{ ...eos, summary: "EOS again" }]);
    const again = await r.listBehaviorChangesByRevision(db, rev!.id);
    expect(again.map((b) => [b.id, b.summary])).toEqual([[first[0]!.id, "EOS again"]]);
    await r.replaceBehaviorChanges(db, rev!.id, []);
    expect(await r.listBehaviorChangesByRevision(db, rev!.id)).toEqual([]);
    expect((await r.listBehaviorChangesByRevision(db, other!.id)).map((b) => b.kind)).toEqual([
      "torch_dtype",
    ]);
  });

  it("estimates and drift: per version, latest, revisions needing re-estimation", async () => {
    const revs = await r.insertPendingRevisions(db, repoId, [{ sha: sha(1) }, { sha: sha(2) }]);
    for (const rev of revs) await r.markRevisionDone(db, rev.id);
    await r.upsertEstimate(db, {
      revisionId: revs[0]!.id,
      estimatorVersion: "1.0.0",
      paramsTotal: 8_030_261_248,
    });
    const e2 = await r.upsertEstimate(db, {
      revisionId: revs[0]!.id,
      estimatorVersion: "1.1.0",
      paramsTotal: 8_030_261_249,
      result: { paramsTotal: 8_030_261_249 },
    });
    expect(e2.paramsTotal).toBe(8_030_261_249);
    expect(await r.getEstimate(db, revs[0]!.id, "1.0.0")).toMatchObject({ paramsTotal: 8_030_261_248 });
    expect((await r.latestEstimateForRevision(db, revs[0]!.id))!.estimatorVersion).toBe("1.1.0");
    expect(await r.listEstimatesForRevision(db, revs[0]!.id)).toHaveLength(2);
    await r.upsertEstimate(db, { revisionId: revs[1]!.id, estimatorVersion: "1.0.0", error: "no config" });
    const todo = (await r.listRevisionsWithoutVersion(db, "1.1.0")).filter((x) => x.repoId === repoId);
    expect(todo.map((x) => x.sha)).toEqual([sha(2)]);

    const differences = { paramsTotal: { from: 1, to: 2 } };
    await r.recordDrift(db, {
      revisionId: revs[0]!.id,
      fromVersion: "1.0.0",
      toVersion: "1.1.0",
      differences,
    });
    await r.recordDrift(db, {
      revisionId: revs[0]!.id,
      fromVersion: "1.0.0",
      toVersion: "1.1.0",
      differences,
    });
    expect(await r.listDrift(db, { revisionId: revs[0]!.id })).toMatchObject([{ differences }]);
  });

  it("advisories: update, close, lists and keyset pages", async () => {
    const published = new Date("2027-05-01T00:00:00Z");
    const made = [];
    for (let i = 0; i < 5; i++) {
      const modified = new Date(published.getTime() + (i % 3) * 1000);
      const { advisory } = await r.openAdvisory(db, {
        repoId,
        introducedSha: sha(i),
        published,
        modified,
        record: (id) => ({ id }),
      });
      made.push(advisory);
    }
    const closed = await r.closeAdvisory(db, made[0]!.id, {
      fixedSha: sha(9),
      modified: new Date("2027-06-01T00:00:00Z"),
      record: { id: made[0]!.id, withdrawn: false },
    });
    expect(closed).toMatchObject({ status: "closed", fixedSha: sha(9) });
    expect(await r.getAdvisory(db, made[0]!.id)).toEqual(closed);
    expect(await r.getAdvisory(db, "x_HUBWATCH-1999-0001")).toBeNull();
    expect((await r.listOpenAdvisories(db, repoId)).map((a) => a.id)).toEqual(made.slice(1).map((a) => a.id));
    expect(await r.listAdvisoriesByRepo(db, repoId)).toHaveLength(5);

    const seen: string[] = [];
    let after: r.AdvisoryCursor | null = null;
    do {
      const page: r.AdvisoryPage = await r.listAdvisories(db, { limit: 2, after });
      seen.push(...page.items.filter((a) => a.repoId === repoId).map((a) => a.id));
      after = page.next;
    } while (after);
    const expected = [...made]
      .map((a) => (a.id === closed!.id ? closed! : a))
      .sort((a, b) => b.modified.getTime() - a.modified.getTime() || (a.id < b.id ? 1 : -1))
      .map((a) => a.id);
    expect(seen).toEqual(expected);
    const recent = await r.listAdvisories(db, { modifiedSince: new Date("2027-05-15T00:00:00Z") });
    expect(recent.items.map((a) => a.id)).toContain(closed!.id);
  });

  it("badges: etag moves only when the JSON changes", async () => {
    const a = await r.upsertBadge(db, repoId, "params", { schemaVersion: 1, label: "params", message: "8B" });
    const b = await r.upsertBadge(db, repoId, "params", { message: "8B", label: "params", schemaVersion: 1 });
    expect(a.changed).toBe(true);
    expect(b).toMatchObject({ changed: false, badge: { etag: a.badge.etag, updatedAt: a.badge.updatedAt } });
    const c = await r.upsertBadge(db, repoId, "params", { schemaVersion: 1, label: "params", message: "9B" });
    expect(c.changed).toBe(true);
    expect(c.badge.etag).not.toBe(a.badge.etag);
    expect(c.badge.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect((await r.getBadge(db, repoId, "params"))!.json).toMatchObject({ message: "9B" });
    expect(await r.listBadges(db, repoId)).toHaveLength(1);
  });

  it("findings: deduplicated on (repo, sha, kind), null sha included", async () => {
    const f1 = await r.recordFinding(db, { repoId, kind: "not_found", message: "gone" });
    const f2 = await r.recordFinding(db, { repoId, kind: "not_found", message: "gone again" });
    expect([f1.created, f2.created]).toEqual([true, false]);
    expect(f2.finding.id).toBe(f1.finding.id);
    await r.recordFinding(db, { repoId, sha: sha(1), kind: "bad_config", message: "not json" });
    expect(await r.listFindings(db, { repoId })).toHaveLength(2);
    expect(await r.listFindings(db, { repoId, sha: sha(1) })).toMatchObject([{ kind: "bad_config" }]);
  });

  it("webhooks: subscription filters, delivery lifecycle, attempts", async () => {
    const repo = (await r.getRepoById(db, repoId))!;
    const owner = repo.name.split("/")[0]!;
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const all = await r.createSubscription(db, { url: "http://a/", secret, events: ["advisory.opened"] });
    const byOwner = await r.createSubscription(db, {
      url: "http://b/",
      secret,
      repoFilter: `${owner}/*`,
      events: ["advisory.opened", "revision.processed"],
    });
    const other = await r.createSubscription(db, {
      url: "http://c/",
      secret,
      repoFilter: "x/y",
      events: ["advisory.opened"],
    });
    const wanted = (await r.listSubscriptionsFor(db, repo.name, "advisory.opened")).map((s) => s.id);
    expect(wanted).toContain(all.id);
    expect(wanted).toContain(byOwner.id);
    expect(wanted).not.toContain(other.id);
    expect((await r.listSubscriptionsFor(db, repo.name, "revision.processed")).map((s) => s.id)).toContain(
      byOwner.id,
    );

    const id = r.makeEventId("advisory.opened", `${repo.name}@${repoId}`);
    expect(id).toBe(r.makeEventId("advisory.opened", `${repo.name}@${repoId}`));
    await r.insertEvent(db, { id, type: "advisory.opened", repoId, payload: { repo: repo.name } });
    expect(await r.insertDelivery(db, all.id, id)).toBe(true);
    expect(await r.insertDelivery(db, byOwner.id, id)).toBe(true);
    expect(await r.insertDelivery(db, all.id, id)).toBe(false);
    await r.disableSubscription(db, byOwner.id, "410 Gone");
    expect(await r.getDelivery(db, all.id, id)).toMatchObject({ status: "pending", attempts: 0 });

    const retryAt = new Date(Date.now() + 60_000);
    const failed = {
      subscriptionId: all.id,
      eventId: id,
      attempt: 1,
      responseStatus: 500,
      responseBody: "x".repeat(10_000),
      error: null,
      durationMs: 12,
      status: "failed" as const,
      nextAttemptAt: retryAt,
    };
    expect(await r.recordAttempt(db, failed)).toBe(true);
    expect(await r.recordAttempt(db, { ...failed, status: "delivered" })).toBe(false);
    expect(await r.getDelivery(db, all.id, id)).toMatchObject({
      status: "failed",
      attempts: 1,
      nextAttemptAt: retryAt,
      deliveredAt: null,
    });
    const ok = { ...failed, attempt: 2, responseStatus: 200, responseBody: "", nextAttemptAt: null };
    expect(await r.recordAttempt(db, { ...ok, status: "delivered" })).toBe(true);
    expect(await r.getDelivery(db, all.id, id)).toMatchObject({ status: "delivered", attempts: 2 });
    await r.reopenDelivery(db, all.id, id);
    expect(await r.getDelivery(db, all.id, id)).toMatchObject({ status: "pending", attempts: 2 });
    const attempts = await r.listAttempts(db, all.id, id);
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2]);
    expect(attempts[0]!.responseBody).toHaveLength(r.RESPONSE_BODY_LIMIT);
    expect(await r.listDeliveries(db, { eventId: id })).toHaveLength(2);
    expect(await r.listDeliveries(db, { subscriptionId: all.id })).toMatchObject([{ eventId: id }]);

    expect(await r.updateSubscription(db, other.id, { events: ["advisory.closed"] })).toMatchObject({
      events: ["advisory.closed"],
    });
    expect(await r.enableSubscription(db, byOwner.id)).toMatchObject({ enabled: true, disabledReason: null });
    expect(await r.deleteSubscription(db, other.id)).toBe(true);
    expect(await r.getSubscription(db, other.id)).toBeNull();
  });

  it("api tokens: only the hash is stored, revoked tokens stop working", async () => {
    const token = r.generateApiToken();
    const row = await r.createApiToken(db, `ci-${repoId}`, token);
    expect(row.tokenHash).toBe(r.hashToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(await r.findApiTokenByHash(db, r.hashToken(token))).toMatchObject({ id: row.id });
    expect(await r.authenticateApiToken(db, token)).toMatchObject({ id: row.id });
    expect((await r.findApiTokenByHash(db, row.tokenHash))!.lastUsedAt).toBeInstanceOf(Date);
    const revoked = await r.revokeApiToken(db, row.id, new Date("2026-02-02T00:00:00Z"));
    expect(revoked!.revokedAt).toEqual(new Date("2026-02-02T00:00:00Z"));
    expect(await r.authenticateApiToken(db, token)).toBeNull();
    expect(await r.authenticateApiToken(db, "hw_wrong")).toBeNull();
  });

  it("withTransaction rolls back everything on throw", async () => {
    await expect(
      r.withTransaction(db, async (tx) => {
        await r.insertPendingRevisions(tx, repoId, [{ sha: sha(7) }]);
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    expect(await r.getRevisionBySha(db, repoId, sha(7))).toBeNull();
  });
});
