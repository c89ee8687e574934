import { modelInfo } from "@huggingface/hub";
import type { Db } from "../../db/types.ts";
import { HubNotFoundError } from "../../hub/errors.ts";
import { type HubOptions, hubFetch, withRetry } from "../../hub/fetch.ts";
import { headsByRepoName } from "../../repositories/repos.repository.ts";
import { shasWithPrefix } from "../../repositories/revisions-read.repository.ts";

/**
 * Turns what a reference names into commits: the head of a repo (for a floating reference) and a
 * tag, branch or short sha (for a pin that is not a full sha). Null: this source does not know.
 */
export type RevisionSource = {
  heads(repos: string[]): Promise<Map<string, string>>;
  resolve(repo: string, revision: string): Promise<string | null>;
};

const HEX = /^[0-9a-f]{7,39}$/i;

/** The store's view: heads as last polled, short shas among the recorded revisions. */
export function storeRevisions(db: Db): RevisionSource {
  return {
    async heads(repos) {
      const heads = await headsByRepoName(db, repos);
      return new Map([...heads].filter((e): e is [string, string] => e[1] !== null));
    },
    async resolve(repo, revision) {
      if (!HEX.test(revision)) return null;
      const shas = await shasWithPrefix(db, repo, revision);
      return shas.length === 1 ? (shas[0] ?? null) : null;
    },
  };
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * The Hub's view (`GET /api/models/{repo}/revision/{rev}`): heads of main and any tag, branch or sha
 * it accepts. A repo or revision the Hub does not know is null; other failures go to `warn` as null.
 */
export function hubRevisions(opts: HubOptions, warn: (message: string) => void): RevisionSource {
  const shaAt = async (repo: string, revision?: string): Promise<string | null> => {
    try {
      const info = await withRetry(opts, () =>
        modelInfo({
          name: repo,
          ...(revision && { revision }),
          additionalFields: ["sha"],
          ...(opts.hubUrl && { hubUrl: opts.hubUrl }),
          ...(opts.accessToken && { accessToken: opts.accessToken }),
          fetch: hubFetch(opts),
        }),
      );
      return typeof info.sha === "string" ? info.sha : null;
    } catch (err) {
      if (!(err instanceof HubNotFoundError))
        warn(`${repo}@${revision ?? "main"}: the Hub did not answer (${(err as Error).message})`);
      return null;
    }
  };
  return {
    async heads(repos) {
      const shas = await mapLimit(repos, 8, (r) => shaAt(r));
      return new Map(repos.flatMap((r, i) => (shas[i] ? [[r, shas[i]] as [string, string]] : [])));
    },
    resolve: (repo, revision) => shaAt(repo, revision),
  };
}

/** Asks each source in turn; the first that knows wins (the store first, then the Hub). */
export function firstKnown(sources: RevisionSource[]): RevisionSource {
  return {
    async heads(repos) {
      const found = new Map<string, string>();
      for (const s of sources) {
        const missing = repos.filter((r) => !found.has(r));
        if (missing.length === 0) break;
        for (const [repo, sha] of await s.heads(missing)) found.set(repo, sha);
      }
      return found;
    },
    async resolve(repo, revision) {
      for (const s of sources) {
        const sha = await s.resolve(repo, revision);
        if (sha) return sha;
      }
      return null;
    },
  };
}

export { mapLimit };
