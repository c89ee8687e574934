import type { Db } from "../../db/types.ts";
import type { AdvisoryRecordRow } from "../../repositories/advisories.repository.ts";
import {
  getAdvisory,
  listAdvisoriesByRepo,
  listAdvisoriesForRepoName,
} from "../../repositories/advisories-read.repository.ts";
import { repoIdsWithCommit, revisionSeqs } from "../../repositories/revisions-read.repository.ts";
import { normalizeGitUrl, type OsvQuery, OsvQueryError, parseOsvQuery } from "./parse-osv-query.ts";
import { rangeCovers } from "./range-covers.ts";

type OsvRecord = Record<string, unknown> & { id: string; modified: string };
type Page<T> = { items: T[]; nextPageToken: string | null };

/** OSV.dev caps a /v1/query page at 1,000 vulns and a /v1/querybatch at 1,000 queries. */
const OSV_PAGE_SIZE = 1000;
export const OSV_MAX_BATCH = 1000;

function shasInRecord(record: Record<string, unknown>): string[] {
  const out = new Set<string>();
  for (const a of (record.affected as { ranges?: { events?: Record<string, string>[] }[] }[]) ?? []) {
    for (const r of a.ranges ?? [])
      for (const e of r.events ?? []) for (const v of Object.values(e)) out.add(v);
  }
  return [...out];
}

async function coveringCommit<R extends AdvisoryRecordRow>(
  db: Db,
  repoId: number,
  rows: R[],
  commit: string | null,
) {
  if (!commit || rows.length === 0) return rows;
  const shas = new Set([commit, ...rows.flatMap((r) => shasInRecord(r.record))]);
  const seqs = await revisionSeqs(db, repoId, [...shas]);
  return rows.filter((r) => rangeCovers(r.record, (s) => seqs.get(s), commit));
}

async function matching(db: Db, q: OsvQuery): Promise<AdvisoryRecordRow[]> {
  if (q.kind === "none") return [];
  if (q.kind === "commit") {
    const ids = await repoIdsWithCommit(db, q.commit);
    const perRepo = await Promise.all(
      ids.map(async (id) => coveringCommit(db, id, await listAdvisoriesByRepo(db, id), q.commit)),
    );
    return perRepo.flat();
  }
  const all = await listAdvisoriesForRepoName(db, `${q.owner}/${q.name}`);
  const rows = all[0] ? await coveringCommit(db, all[0].repoId, all, q.commit) : [];
  // Hub owners and names are case-insensitive: so is the match on the package URL.
  const url = q.gitUrl?.toLowerCase();
  return url ? rows.filter((r) => packageNames(r.record).includes(url)) : rows;
}

function packageNames(record: Record<string, unknown>): string[] {
  const affected = (record.affected as { package?: { name?: string } }[]) ?? [];
  return affected.map((a) => normalizeGitUrl(a.package?.name ?? "").toLowerCase());
}

function decodeToken(token: string | null): number {
  if (!token) return 0;
  const m = /^o(\d{1,9})$/.exec(Buffer.from(token, "base64url").toString("utf8"));
  if (!m) throw new OsvQueryError("Invalid page token.");
  return Number(m[1]);
}

function paginate<T>(all: T[], token: string | null, size: number): Page<T> {
  const offset = decodeToken(token);
  const items = all.slice(offset, offset + size);
  const next = offset + size < all.length ? Buffer.from(`o${offset + size}`).toString("base64url") : null;
  return { items, nextPageToken: next };
}

/** POST /v1/query: full OSV records, paginated like OSV.dev (empty fields omitted). */
export async function queryOsv(db: Db, body: unknown, pageSize = OSV_PAGE_SIZE) {
  const q = parseOsvQuery(body);
  const token = q.kind === "none" ? null : q.pageToken;
  const page = paginate(await matching(db, q), token, pageSize);
  return withToken({ vulns: page.items.map((r) => r.record as OsvRecord) }, page.nextPageToken);
}

/** POST /v1/querybatch: `{results: [{vulns: [{id, modified}]}]}` in input order. */
export async function queryOsvBatch(db: Db, body: unknown, pageSize = OSV_PAGE_SIZE) {
  const queries = (body as { queries?: unknown } | null)?.queries;
  if (!Array.isArray(queries)) throw new OsvQueryError("queries must be an array.");
  if (queries.length > OSV_MAX_BATCH) throw new OsvQueryError(`Too many queries (max ${OSV_MAX_BATCH}).`);
  const parsed = queries.map((q) => parseOsvQuery(q));
  const results = await Promise.all(
    parsed.map(async (q) => {
      const page = paginate(await matching(db, q), q.kind === "none" ? null : q.pageToken, pageSize);
      const vulns = page.items.map((r) => ({ id: r.id, modified: (r.record as OsvRecord).modified }));
      return withToken({ vulns }, page.nextPageToken);
    }),
  );
  return { results };
}

function withToken(res: { vulns: unknown[] }, token: string | null): Record<string, unknown> {
  // OSV.dev (protobuf JSON) omits empty lists and absent tokens.
  const out: Record<string, unknown> = res.vulns.length ? { vulns: res.vulns } : {};
  if (token) out.next_page_token = token;
  return out;
}

export async function getVuln(db: Db, id: string): Promise<OsvRecord | null> {
  const row = await getAdvisory(db, id);
  return row ? (row.record as OsvRecord) : null;
}
