import { listFiles } from "@huggingface/hub";
import { type HubOptions, hubFetch, withRetry } from "./fetch.ts";
import { parseUpstream, TreeEntrySchema } from "./schema.ts";

export type HubFile = {
  path: string;
  /** git blob sha1 (of the LFS pointer for LFS files). */
  oid: string;
  /** Bytes (the real size for LFS files). */
  size: number;
  /** sha256 of the content for LFS files. */
  lfsOid?: string;
};

/** Every file (directories left out) of a revision, recursively, sorted by path. */
export async function listTree(args: HubOptions & { repo: string; sha: string }): Promise<HubFile[]> {
  return withRetry(args, async () => {
    const files: HubFile[] = [];
    const entries = listFiles({
      repo: args.repo,
      revision: args.sha,
      recursive: true,
      hubUrl: args.hubUrl,
      accessToken: args.accessToken,
      fetch: hubFetch(args),
    });
    for await (const raw of entries) {
      const e = parseUpstream(TreeEntrySchema, raw, `tree entry in ${args.repo}@${args.sha}`);
      if (e.type !== "file") continue;
      const file: HubFile = { path: e.path, oid: e.oid ?? "", size: e.size };
      if (e.lfs) file.lfsOid = e.lfs.oid;
      files.push(file);
    }
    return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  });
}
