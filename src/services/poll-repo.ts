import type { Tx } from "../db/types.ts";
import type { Repo } from "../repositories/repos.repository.ts";
import { getRepoByName, markRepoPolled, setRepoStatus } from "../repositories/repos.repository.ts";
import {
  insertPendingRevisions,
  markForcePushedAway,
  type NewRevision,
} from "../repositories/revisions.repository.ts";
import { listRevisionsByRepo } from "../repositories/revisions-read.repository.ts";
import { nextPendingRevision } from "../repositories/revisions-status.repository.ts";
import { withTransaction } from "../repositories/transaction.ts";
import type { PipelineServices } from "./deps.ts";
import { type ForcePushSettlement, settleForcePushedAdvisories } from "./force-pushed-advisories.ts";
import { hubErrorKind } from "./hub-errors.ts";
import type { NewCommits } from "./hub-port.ts";
import { recordFinding } from "./record-finding.ts";

type PollOutcome = {
  status: "ok" | "gated" | "not_found" | "unwatched";
  newRevisions: number;
  forcePushed: boolean;
  /** Oldest revision still to process, if any (new or left over from an earlier run). */
  nextPendingSha: string | null;
  /** Advisories withdrawn because a force-push removed their introducing revision. */
  withdrawn: string[];
  /** Closed advisories reopened because a force-push removed their fixing revision. */
  reopened: string[];
  /** Webhook events recorded by this poll. */
  eventIds: string[];
  /** Subscriptions with deliveries recorded by this poll (their delivery lanes follow). */
  deliverTo: number[];
  /** The repo had no last seen sha: its revisions are a backfill (queued behind caught-up repos' work). */
  firstWatch?: boolean;
};

const NOTHING: ForcePushSettlement = { withdrawn: [], reopened: [], eventIds: [], deliverTo: [] };

/**
 * Asks the Hub for commits after the repo's last seen sha (one request when nothing is new) and
 * records them as pending revisions, oldest first, in one transaction with the repo's new head.
 * 401/403 and 404 are recorded on the repo (status + finding) and not thrown: retrying cannot help.
 * A force push (last seen sha gone) is recorded as a finding; revisions no longer upstream are flagged
 * and, in the same transaction, the advisories they introduced withdrawn (those they fixed reopened).
 */
export async function pollRepo(
  s: PipelineServices,
  name: string,
  opts: { knownHead?: string } = {},
): Promise<PollOutcome> {
  const repo = await getRepoByName(s.db, name);
  if (!repo)
    return { status: "unwatched", newRevisions: 0, forcePushed: false, nextPendingSha: null, ...NOTHING };
  let upstream: NewCommits;
  try {
    upstream = await newCommits(s, repo, opts.knownHead);
  } catch (err) {
    const kind = hubErrorKind(err);
    if (kind !== "not_found" && kind !== "access") throw err;
    const status = kind === "access" ? "gated" : "not_found";
    await recordUnreachable(s, repo, status, err instanceof Error ? err.message : String(err));
    return { status, newRevisions: 0, forcePushed: false, nextPendingSha: null, ...NOTHING };
  }
  const now = s.now();
  const { inserted, settled } = await withTransaction(s.db, async (tx) => {
    const settled = upstream.forcePushed ? await recordForcePush(tx, repo, upstream, now) : NOTHING;
    const inserted = await insertPendingRevisions(tx, repo.id, upstream.commits.map(toNewRevision));
    if (repo.lastSeenSha === null && upstream.truncated) await recordSkippedHistory(tx, repo, upstream);
    await markRepoPolled(tx, repo.id, { lastSeenSha: upstream.headSha ?? repo.lastSeenSha, at: now });
    // A gated repo's commit list is public; it stays gated until a revision's files can be read.
    if (repo.status === "not_found" || repo.status === "error") await setRepoStatus(tx, repo.id, "ok", null);
    return { inserted, settled };
  });
  // Pending revisions of a gated repo wait for a new upstream commit (or a token) before trying again,
  // so a poll with nothing new stays one request.
  const next =
    repo.status === "gated" && inserted.length === 0 ? null : await nextPendingRevision(s.db, repo.id);
  s.log.debug({ repo: name, new: inserted.length, forcePushed: upstream.forcePushed }, "polled");
  return {
    status: "ok",
    firstWatch: repo.lastSeenSha === null,
    newRevisions: inserted.length,
    forcePushed: upstream.forcePushed,
    nextPendingSha: next?.sha ?? null,
    ...settled,
  };
}

/**
 * What is new upstream. `knownHead` (from an owner listing or a Hub webhook) equal to the last seen sha
 * costs no request; a different one means new commits, fetched as one large page.
 */
async function newCommits(s: PipelineServices, repo: Repo, knownHead?: string): Promise<NewCommits> {
  if (knownHead !== undefined && knownHead === repo.lastSeenSha)
    return { commits: [], forcePushed: false, truncated: false, headSha: knownHead };
  const sinceSha = repo.lastSeenSha;
  const upstream = await s.hub.listNewCommits({
    repo: repo.name,
    sinceSha,
    expectNew: knownHead !== undefined,
  });
  if (!upstream.forcePushed) return upstream;
  // History rewritten: read the new history whole (rare, so worth the requests) to know what is gone.
  const whole = await s.hub.listNewCommits({ repo: repo.name, sinceSha: null, wholeHistory: true });
  return { ...whole, forcePushed: true };
}

/** A first watch reads the newest commits only (the backfill depth): say so, once, on the repo. */
async function recordSkippedHistory(tx: Tx, repo: Repo, upstream: NewCommits): Promise<void> {
  const oldest = upstream.commits[0];
  const message = `first watch: the newest ${upstream.commits.length} commits were recorded; older history (before ${oldest?.sha ?? "?"}, parent ${oldest?.parentSha ?? "?"}) was skipped`;
  await recordFinding(tx, { repoId: repo.id, sha: null, kind: "history_skipped", message });
}

function toNewRevision(c: NewCommits["commits"][number]): NewRevision {
  return {
    sha: c.sha,
    parentSha: c.parentSha,
    committedAt: c.date,
    title: c.title,
    author: c.authors[0] ?? null,
  };
}

async function recordForcePush(
  tx: Tx,
  repo: Repo,
  upstream: NewCommits,
  now: Date,
): Promise<ForcePushSettlement> {
  const upstreamShas = new Set(upstream.commits.map((c) => c.sha));
  const stored = await listRevisionsByRepo(tx, repo.id);
  const gone = stored.filter((r) => !upstreamShas.has(r.sha)).map((r) => r.sha);
  await markForcePushedAway(tx, repo.id, gone);
  const message = `history rewritten: last seen ${repo.lastSeenSha} is gone upstream; ${gone.length} recorded revision(s) no longer in history; new head ${upstream.headSha}`;
  await recordFinding(tx, { repoId: repo.id, sha: repo.lastSeenSha, kind: "force_push", message });
  return settleForcePushedAdvisories(tx, repo, gone, now);
}

async function recordUnreachable(
  s: PipelineServices,
  repo: Repo,
  status: "gated" | "not_found",
  message: string,
): Promise<void> {
  await withTransaction(s.db, async (tx) => {
    await setRepoStatus(tx, repo.id, status, message);
    await markRepoPolled(tx, repo.id, { at: s.now() });
    await recordFinding(tx, { repoId: repo.id, sha: null, kind: status, message });
  });
}
