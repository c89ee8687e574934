import { listCommits } from "@huggingface/hub";
import { type HubOptions, hubFetch, withRetry } from "./fetch.ts";
import { CommitDataSchema, parseUpstream } from "./schema.ts";

export type HubCommit = {
  sha: string;
  parentSha: string | null;
  date: Date;
  title: string;
  authors: string[];
};

export type NewCommits = {
  /** Oldest first. */
  commits: HubCommit[];
  /** `sinceSha` is no longer in the branch's history (rewritten). `commits` then holds the new head only. */
  forcePushed: boolean;
  /** More than `maxCommits` new commits (sinceSha not met within them): only the newest `maxCommits`. */
  truncated: boolean;
  headSha: string | null;
};

export type ListNewCommitsArgs = HubOptions & {
  repo: string;
  /** Last processed head; null/undefined on the first poll. */
  sinceSha?: string | null;
  revision?: string;
  /** First page size: when nothing is new, the whole call is this one request (default 10). */
  firstPageSize?: number;
  /**
   * The caller knows the head moved (an owner listing or a webhook said so): the first page is then
   * `pageSize` commits, so a burst of up to that many costs one request, not a small page followed by a
   * large one that repeats it. (With no `sinceSha`, the first page is `min(1000, maxCommits + 1)`.)
   */
  expectNew?: boolean;
  /** Page size once the first page did not reach `sinceSha` (default 100). */
  pageSize?: number;
  /** Most commits walked (default 1000). */
  maxCommits?: number;
  /** With no `sinceSha`: the whole history up to `maxCommits` ("all", default) or the head only. */
  initial?: "all" | "head";
};

type Raw = { sha: string; date: Date; title: string; authors: string[] };

/** Walks newest-first until `stop` (a sha), `limit` items or the end; `complete` when the end was reached. */
async function walk(args: ListNewCommitsArgs, batchSize: number, limit: number, stop?: string | null) {
  const items: Raw[] = [];
  let found = false;
  const gen = listCommits({
    repo: args.repo,
    revision: args.revision ?? "main",
    batchSize,
    hubUrl: args.hubUrl,
    accessToken: args.accessToken,
    fetch: hubFetch(args),
  });
  for await (const raw of gen) {
    const c = parseUpstream(CommitDataSchema, raw, `commit in ${args.repo}`);
    if (c.oid === stop) {
      found = true;
      break;
    }
    items.push({ sha: c.oid, date: c.date, title: c.title, authors: c.authors.map((a) => a.username) });
    if (items.length >= limit) break;
  }
  return { items, found, complete: !found && items.length < limit };
}

function oldestFirst(newestFirst: Raw[], parentOfOldest: string | null): HubCommit[] {
  return newestFirst
    .map((c, i) => ({ ...c, parentSha: newestFirst[i + 1]?.sha ?? parentOfOldest }))
    .reverse();
}

/**
 * Commits on `revision` (default main) after `sinceSha`. Costs one request of `firstPageSize` commits
 * when nothing (or little) is new; larger pages after that. Parents are taken from the linear history.
 */
export async function listNewCommits(args: ListNewCommitsArgs): Promise<NewCommits> {
  const max = args.maxCommits ?? 1000;
  const since = args.sinceSha ?? null;
  const wantAll = since !== null || (args.initial ?? "all") === "all";
  // A first watch reads its whole depth in one page; a known move, one page of `pageSize`.
  const large = since === null ? Math.min(1000, max + 1) : Math.min(args.pageSize ?? 100, max + 1);
  const first = wantAll && (since === null || args.expectNew) ? large : (args.firstPageSize ?? 10);
  return withRetry(args, async () => {
    let page = await walk(args, first, wantAll ? Math.min(first, max + 1) : 2, since);
    if (wantAll && !page.found && !page.complete && first < max + 1)
      page = await walk(args, args.pageSize ?? 100, max + 1, since);
    const headSha = page.items[0]?.sha ?? since;
    if (since !== null && page.found) {
      return { commits: oldestFirst(page.items, since), forcePushed: false, truncated: false, headSha };
    }
    if ((since !== null && page.complete) || !wantAll) {
      const head = page.items.slice(0, 1);
      const commits = head.length ? oldestFirst(head, page.items[1]?.sha ?? null) : [];
      return { commits, forcePushed: since !== null, truncated: false, headSha };
    }
    // No sinceSha (first poll), or more than maxCommits new ones: the newest maxCommits.
    const truncated = page.items.length > max;
    const items = page.items.slice(0, max);
    const parent = truncated ? page.items[max]!.sha : null;
    return { commits: oldestFirst(items, parent), forcePushed: false, truncated, headSha };
  });
}
