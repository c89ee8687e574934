import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { z } from "zod";
import type { CommitSpec, FileSpec, RepoSpec } from "./types.ts";

/** `commit.json` of one revision folder. `deleted`: repo paths this revision removes. */
const CommitJson = z.object({
  title: z.string(),
  date: z.string().refine((d) => !Number.isNaN(Date.parse(d)), "not a date"),
  authors: z.array(z.string()).optional(),
  message: z.string().optional(),
  deleted: z.array(z.string()).optional(),
});

const REVISION_DIR = /^\d+-([0-9a-f]{40})$/;
const HEADER_SUFFIX = ".header.json";

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...filesUnder(full));
    else out.push(full);
  }
  return out;
}

/** One revision folder: commit.json, files at their repo paths, `X.safetensors.header.json` for X.safetensors. */
function revision(dir: string, sha: string): CommitSpec {
  const meta = CommitJson.parse(JSON.parse(readFileSync(join(dir, "commit.json"), "utf8")));
  const changes: Record<string, FileSpec | null> = {};
  for (const path of meta.deleted ?? []) changes[path] = null;
  for (const full of filesUnder(dir)) {
    const path = relative(dir, full).split(sep).join("/");
    if (path === "commit.json") continue;
    if (path.endsWith(`.safetensors${HEADER_SUFFIX}`)) {
      const header = JSON.parse(readFileSync(full, "utf8")) as Record<string, unknown>;
      changes[path.slice(0, -HEADER_SUFFIX.length)] = { kind: "safetensors", header: () => header };
    } else {
      changes[path] = { kind: "text", text: readFileSync(full, "utf8") };
    }
  }
  const { deleted: _deleted, ...rest } = meta;
  return { ...rest, sha, changes };
}

/**
 * Repos recorded in a folder, for `hubwatch replay-hub --repos DIR`: `DIR/OWNER/NAME/NNNN-SHA/` per
 * revision, applied in NNNN order, each with `commit.json` ({title, date, authors?, message?, deleted?})
 * and the files that revision adds or changes at their repo paths; `X.safetensors.header.json` stands for
 * a safetensors file X.safetensors with that header (the body is generated). See src/replay-hub/README.md.
 */
export function loadReposFromFolder(dir: string): RepoSpec[] {
  const repos: RepoSpec[] = [];
  for (const owner of readdirSync(dir).sort()) {
    if (!statSync(join(dir, owner)).isDirectory()) continue;
    for (const name of readdirSync(join(dir, owner)).sort()) {
      const repoDir = join(dir, owner, name);
      if (!statSync(repoDir).isDirectory()) continue;
      const revs = readdirSync(repoDir)
        .map((d) => ({ d, m: REVISION_DIR.exec(d) }))
        .filter((r): r is { d: string; m: RegExpExecArray } => r.m !== null)
        .sort((a, b) => Number(a.d.split("-")[0]) - Number(b.d.split("-")[0]));
      if (revs.length === 0) continue;
      repos.push({ id: `${owner}/${name}`, commits: revs.map((r) => revision(join(repoDir, r.d), r.m[1]!)) });
    }
  }
  return repos;
}
