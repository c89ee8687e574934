import type { FindingKind } from "../db/schema/index.ts";
import { getRepoByName, type Repo, setRepoStatus } from "../repositories/repos.repository.ts";
import { markRevisionFailed, type Revision } from "../repositories/revisions.repository.ts";
import { getParentRevision, listRevisionsByRepo } from "../repositories/revisions-read.repository.ts";
import { nextPendingRevision } from "../repositories/revisions-status.repository.ts";
import { withTransaction } from "../repositories/transaction.ts";
import { adviseRevision } from "./advise-revision.ts";
import type { PipelineServices } from "./deps.ts";
import { diffRevision } from "./diff-revision.ts";
import { estimateRevision } from "./estimate-revision.ts";
import { BadUpstreamDataError, hubErrorKind } from "./hub-errors.ts";
import { checkPeftBaseReady, isBaseNotReady } from "./peft-base.ts";
import { recordFinding } from "./record-finding.ts";
import { snapshotRevision } from "./snapshot-revision.ts";

type AdvanceOutcome = {
  /** The revision this run worked on (null: nothing pending). */
  sha: string | null;
  /** "waiting": a PEFT adapter revision waits for its base's revision to be processed (run again later). */
  status: "done" | "failed" | "gated" | "idle" | "waiting";
  nextPendingSha: string | null;
  /** Webhook events recorded by this run. */
  eventIds: string[];
  /** Subscriptions with deliveries recorded by this run: their lanes are queued after commit. */
  deliverTo: number[];
  opened: string[];
  closed: string[];
};

const IDLE: AdvanceOutcome = {
  sha: null,
  status: "idle",
  nextPendingSha: null,
  eventIds: [],
  deliverTo: [],
  opened: [],
  closed: [],
};

/**
 * Takes the repo's oldest pending revision through snapshot, diff, estimate and advise. Each step
 * commits on its own and is idempotent, so a rerun (retry, second worker) ends in the same store.
 * Bad upstream data fails the revision with a recorded reason and finding, and the repo moves on;
 * Hub outages and 429s are thrown for the runner to retry.
 */
export async function advanceRepo(
  s: PipelineServices,
  name: string,
  opts: { waitForBase: boolean } = { waitForBase: true },
): Promise<AdvanceOutcome> {
  const repo = await getRepoByName(s.db, name);
  if (!repo) return IDLE;
  const revision = await nextPendingRevision(s.db, repo.id);
  if (!revision) return IDLE;
  const base = await baseRevision(s, revision);
  let outcome: AdvanceOutcome;
  const t0 = performance.now();
  const ms: Record<string, number> = {};
  const step = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    const out = await fn();
    ms[name] = Math.round(performance.now() - t);
    return out;
  };
  try {
    const fetched = await step("snapshot", () => snapshotRevision(s, repo, revision, base));
    await checkPeftBaseReady(s, revision, opts.waitForBase);
    await step("diff", () => diffRevision(s, revision, base));
    const estimate = await step("estimate", () => estimateRevision(s, revision, opts));
    const advised = await step("advise", () => adviseRevision(s, repo, revision, estimate));
    // Files were read, so access is granted now (a token added); a revision that needed none proves nothing.
    if (repo.status === "gated" && fetched > 0) await setRepoStatus(s.db, repo.id, "ok", null);
    s.log.info(
      { repo: name, sha: revision.sha, outcome: "done", ms, total: Math.round(performance.now() - t0) },
      "revision processed",
    );
    outcome = { ...IDLE, sha: revision.sha, status: "done", ...advised };
  } catch (err) {
    if (isBaseNotReady(err))
      return { ...IDLE, sha: revision.sha, status: "waiting", nextPendingSha: revision.sha };
    const status = await settle(s, repo, revision, err);
    const total = Math.round(performance.now() - t0);
    const reason = err instanceof Error ? err.message : String(err);
    s.log[status === "failed" ? "warn" : "info"](
      { repo: name, sha: revision.sha, outcome: status, err: reason, ms, total },
      "revision processed",
    );
    outcome = { ...IDLE, sha: revision.sha, status };
    if (status === "gated") return outcome;
  }
  const next = await nextPendingRevision(s.db, repo.id);
  return { ...outcome, nextPendingSha: next?.sha ?? null };
}

/** The revision to compare with: its parent if processed, else the last processed one before it. */
async function baseRevision(s: PipelineServices, revision: Revision): Promise<Revision | null> {
  const parent = await getParentRevision(s.db, revision);
  if (parent?.status === "done") return parent;
  const done = await listRevisionsByRepo(s.db, revision.repoId, { status: "done", newestFirst: true });
  return done.find((r) => r.seq < revision.seq) ?? null;
}

/** Records a permanent failure; rethrows what a retry may fix. */
async function settle(
  s: PipelineServices,
  repo: Repo,
  revision: Revision,
  err: unknown,
): Promise<"failed" | "gated"> {
  const message = err instanceof Error ? err.message : String(err);
  const hub = hubErrorKind(err);
  if (hub === "access") {
    await withTransaction(s.db, async (tx) => {
      await setRepoStatus(tx, repo.id, "gated", message);
      await recordFinding(tx, { repoId: repo.id, sha: null, kind: "gated", message });
    });
    return "gated";
  }
  const kind = findingKind(err, message);
  if (!kind) throw err;
  await withTransaction(s.db, async (tx) => {
    await markRevisionFailed(tx, revision.id, `${kind}: ${message}`, s.now());
    await recordFinding(tx, { repoId: repo.id, sha: revision.sha, kind, message });
  });
  return "failed";
}

/** The finding for an error that retrying cannot fix; null for the ones it may (outages, bugs). */
function findingKind(err: unknown, message: string): FindingKind | null {
  if (err instanceof BadUpstreamDataError) return err.kind;
  const hub = hubErrorKind(err);
  if (hub === "not_found") return "not_found";
  if (hub === "bad_data") {
    const code = (err as { code?: unknown }).code;
    if (code === "TooLarge") return "too_large";
    if (code === "BadSafetensorsHeader" || /safetensors/i.test(message)) return "bad_header";
    if (/config\.json/.test(message)) return "bad_config";
    if (/tokenizer/.test(message)) return "bad_tokenizer";
    return "other";
  }
  // A stack overflow on hostile upstream data would overflow again on every retry.
  if (err instanceof RangeError) return "other";
  return null;
}
