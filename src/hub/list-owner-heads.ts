import { listModels } from "@huggingface/hub";
import { type HubOptions, hubFetch, withRetry } from "./fetch.ts";
import { OwnerModelSchema, parseUpstream } from "./schema.ts";

export type OwnerHeads = {
  /** Repo id ("owner/name") -> head sha of its default branch, for every repo the listing showed. */
  heads: Map<string, string>;
  /** False when `maxPages` ran out before the listing's end: repos not in `heads` may still exist. */
  complete: boolean;
  /** Listing pages requested. */
  pages: number;
};

export type ListOwnerHeadsArgs = HubOptions & {
  owner: string;
  /** Most pages (500 models each, as @huggingface/hub asks) worth spending on this owner. */
  maxPages: number;
};

class PageCapReached extends Error {}

/**
 * Heads of every model repo of `owner` the caller can see, by `listModels({search: {owner},
 * additionalFields: ["sha"]})` (GET /api/models?author=OWNER&expand[]=sha, Link-paginated). Private repos
 * the token cannot see are absent. Stops before page `maxPages + 1` (then `complete` is false).
 */
export async function listOwnerHeads(args: ListOwnerHeadsArgs): Promise<OwnerHeads> {
  return withRetry(args, async () => {
    const heads = new Map<string, string>();
    let pages = 0;
    const inner = hubFetch(args);
    const capped: typeof fetch = (input, init) => {
      if (pages >= args.maxPages) return Promise.reject(new PageCapReached());
      pages += 1;
      return inner(input, init);
    };
    try {
      for await (const raw of listModels({
        search: { owner: args.owner },
        additionalFields: ["sha"],
        hubUrl: args.hubUrl,
        accessToken: args.accessToken,
        fetch: capped,
      })) {
        const m = parseUpstream(OwnerModelSchema, raw, `model listed for ${args.owner}`);
        if (m.sha) heads.set(m.name, m.sha);
      }
    } catch (err) {
      if (err instanceof PageCapReached) return { heads, complete: false, pages };
      throw err;
    }
    return { heads, complete: true, pages };
  });
}
