import {
  type AdvisoryHit,
  buildQueries,
  checkedReference,
  needOf,
  queryKey,
  type ScanReport,
} from "../../core/scan/check.ts";
import type { ModelReference } from "../../core/scan/types.ts";
import { OSV_MAX_BATCH } from "../http/osv-api.ts";
import type { AdvisorySource, BatchResult } from "./advisory-sources.ts";
import { mapLimit, type RevisionSource } from "./revisions.ts";

type CheckDeps = {
  advisories: AdvisorySource;
  revisions: RevisionSource;
  warn: (message: string) => void;
};

/** The commit each reference loads: its sha, its resolved tag/branch/short sha, or its repo's head. */
async function commitsOf(refs: ModelReference[], deps: CheckDeps): Promise<(string | null)[]> {
  const needs = refs.map(needOf);
  const headRepos = [...new Set(refs.filter((_, i) => needs[i]?.kind === "head").map((r) => r.repo))];
  const heads = await deps.revisions.heads(headRepos);
  const toResolve = [
    ...new Set(
      refs.flatMap((r, i) => (needs[i]?.kind === "ref" ? [queryKey(r.repo, r.revision ?? "")] : [])),
    ),
  ];
  const resolved = new Map<string, string | null>();
  await mapLimit(toResolve, 8, async (key) => {
    const at = key.lastIndexOf("@");
    const sha = await deps.revisions.resolve(key.slice(0, at), key.slice(at + 1));
    if (!sha)
      deps.warn(`${key}: revision not found (tag, branch or short sha unknown to the store and the Hub)`);
    resolved.set(key, sha);
  });
  return refs.map((r, i) => {
    const need = needs[i];
    if (need?.kind === "none") return need.sha;
    if (need?.kind === "head") return heads.get(r.repo) ?? null;
    if (need?.kind === "ref") return resolved.get(queryKey(r.repo, r.revision ?? "")) ?? null;
    return null;
  });
}

/** All vuln ids for each query, in one batch per 1,000 queries, following page tokens. */
async function vulnIds(queries: object[], source: AdvisorySource): Promise<string[][]> {
  const out: string[][] = [];
  for (let i = 0; i < queries.length; i += OSV_MAX_BATCH) {
    const chunk = queries.slice(i, i + OSV_MAX_BATCH);
    const results = await source.querybatch(chunk);
    for (const [k, first] of results.entries()) {
      const ids = (first.vulns ?? []).map((v) => v.id);
      let page: BatchResult = first;
      while (page.next_page_token) {
        page = await source.query({ ...(chunk[k] as object), page_token: page.next_page_token });
        ids.push(...(page.vulns ?? []).map((v) => v.id));
      }
      out.push(ids);
    }
  }
  return out;
}

async function hydrate(ids: string[], source: AdvisorySource): Promise<Map<string, AdvisoryHit>> {
  const out = new Map<string, AdvisoryHit>();
  await mapLimit([...new Set(ids)], 8, async (id) => {
    const v = await source.vuln(id);
    out.set(id, { id, summary: v?.summary ?? null, modified: v?.modified ?? null });
  });
  return out;
}

/**
 * Checks every reference against one advisory source: resolves the commit each one loads, asks about
 * every distinct (repo, commit) in one `/v1/querybatch`, and attaches the advisories found.
 */
export async function checkReferences(
  refs: ModelReference[],
  files: number,
  deps: CheckDeps,
  warnings: string[] = [],
): Promise<ScanReport> {
  const commits = await commitsOf(refs, deps);
  const pairs = refs.flatMap((r, i) => (commits[i] ? [{ repo: r.repo, sha: commits[i] }] : []));
  const { keys, queries } = buildQueries(pairs);
  const ids = await vulnIds(queries, deps.advisories);
  const byKey = new Map(keys.map((k, i) => [k, ids[i] ?? []]));
  const hits = await hydrate(ids.flat(), deps.advisories);
  const references = refs.map((r, i) => {
    const sha = commits[i] ?? null;
    const found = sha ? (byKey.get(queryKey(r.repo, sha)) ?? []) : [];
    return checkedReference(
      r,
      sha,
      found.map((id) => hits.get(id) ?? { id, summary: null, modified: null }),
    );
  });
  return { source: deps.advisories.label, files, references, warnings };
}
