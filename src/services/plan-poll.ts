import type { Repo } from "../repositories/repos.repository.ts";
import { repoIdsWithPending } from "../repositories/revisions-status.repository.ts";
import type { PipelineServices } from "./deps.ts";
import { hubErrorKind } from "./hub-errors.ts";
import { listWatchedRepos } from "./watch-repos.ts";

/** One poll-repo job: `knownHead` when an owner listing told the repo's head (no commits request if unchanged). */
type PollPlanItem = { repo: string; knownHead?: string };

type PollPlan = {
  items: PollPlanItem[];
  /** Owner listing pages requested, and per-repo checks left to the poll jobs (one request each). */
  listingPages: number;
  perRepoChecks: number;
};

function byOwner(repos: Repo[]): Map<string, Repo[]> {
  const out = new Map<string, Repo[]>();
  for (const r of repos) {
    const owner = r.name.split("/")[0]!;
    out.set(owner, [...(out.get(owner) ?? []), r]);
  }
  return out;
}

/**
 * A tick's plan: which watched repos to poll, learning heads per owner. An owner with two or more watched
 * repos is listed (GET /api/models?author=OWNER&expand[]=sha), at most `watched - 1` pages so the listing
 * never costs more than per-repo checks would; then only repos whose head moved are polled, plus repos
 * with pending revisions (their poll costs no request). Repos the listing did not show (private ones the
 * token cannot see, deleted or renamed ones, or past the page cap) and owners with one watched repo get a
 * per-repo check. A listing that fails (5xx past retries, refused) falls back to per-repo checks; a 429
 * is thrown, so the tick is retried at the reset instead of spending more of a spent quota.
 */
export async function planPoll(s: PipelineServices): Promise<PollPlan> {
  const repos = await listWatchedRepos(s);
  const pending = await repoIdsWithPending(s.db);
  const plan: PollPlan = { items: [], listingPages: 0, perRepoChecks: 0 };
  for (const [owner, owned] of byOwner(repos)) {
    const heads = owned.length >= 2 ? await ownerHeads(s, owner, owned.length - 1) : null;
    if (heads) plan.listingPages += heads.pages;
    for (const repo of owned) {
      const head = heads?.heads.get(repo.name);
      if (head === undefined) {
        plan.items.push({ repo: repo.name });
        plan.perRepoChecks += 1;
      } else if (head !== repo.lastSeenSha || (pending.has(repo.id) && repo.status !== "gated")) {
        plan.items.push({ repo: repo.name, knownHead: head });
      }
    }
  }
  return plan;
}

async function ownerHeads(s: PipelineServices, owner: string, maxPages: number) {
  try {
    return await s.hub.listOwnerHeads({ owner, maxPages: Math.max(1, maxPages) });
  } catch (err) {
    const kind = hubErrorKind(err);
    if (kind === null || kind === "rate_limited") throw err;
    s.log.warn({ owner, err: err instanceof Error ? err.message : String(err) }, "owner listing failed");
    return null;
  }
}
