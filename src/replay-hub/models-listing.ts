import { createHash } from "node:crypto";
import { type Ctx, sendError, sendJson } from "./http-util.ts";
import { EXPANDABLE, modelField } from "./model-info.ts";
import { type RepoState, visibleTo } from "./repo-state.ts";

/** Fields of a listing item when no expand is given (the Hub's default list fields). */
const LIST_FIELDS = ["likes", "downloads", "private", "pipeline_tag", "tags", "library_name", "createdAt"];
const MAX_LIMIT = 1000;

function item(state: RepoState, expand: string[]): Record<string, unknown> {
  const head = state.history.at(-1)!;
  const body: Record<string, unknown> = {
    _id: createHash("md5").update(state.spec.id).digest("hex").slice(0, 24),
    id: state.spec.id,
  };
  for (const k of expand.length > 0 ? expand : LIST_FIELDS) {
    const v = modelField(state, head, k);
    if (v !== undefined) body[k] = v;
  }
  if (expand.length === 0) body.modelId = state.spec.id;
  return body;
}

/**
 * GET /api/models?author=&search=&expand[]=&limit=&cursor= — the repos the caller may see (private ones
 * only with a granted token), sorted by id, `limit` per page (at most 1000) with an absolute
 * `Link: <...>; rel="next"` carrying an opaque cursor, as the Hub paginates. `expand` returns only the
 * requested fields (plus `_id`, `id`); an unknown one is a 400.
 */
export function handleModelList(ctx: Ctx, repos: Map<string, RepoState>, token: string | undefined): void {
  const q = ctx.url.searchParams;
  const expand = q.getAll("expand").concat(q.getAll("expand[]"));
  const bad = expand.find((k) => !EXPANDABLE.has(k));
  if (bad) {
    sendError(ctx, 400, null, `"expand" must be one of the expandable fields, got "${bad}"`);
    return;
  }
  const author = q.get("author");
  const search = q.get("search")?.toLowerCase();
  const limit = Math.min(MAX_LIMIT, Math.max(1, Number(q.get("limit") ?? MAX_LIMIT) || MAX_LIMIT));
  const offset = Number(Buffer.from(q.get("cursor") ?? "", "base64url").toString() || 0);
  const matching = [...repos.values()]
    .filter((s) => visibleTo(s, token) && s.history.length > 0)
    .filter((s) => !author || s.spec.id.split("/")[0] === author)
    .filter((s) => !search || s.spec.id.toLowerCase().includes(search))
    .sort((a, b) => (a.spec.id < b.spec.id ? -1 : a.spec.id > b.spec.id ? 1 : 0));
  const headers: Record<string, string> = {};
  if (offset + limit < matching.length) {
    const next = new URL(`${ctx.url.pathname}${ctx.url.search}`, ctx.origin);
    next.searchParams.set("cursor", Buffer.from(String(offset + limit)).toString("base64url"));
    headers.Link = `<${next.href}>; rel="next"`;
  }
  sendJson(
    ctx,
    200,
    matching.slice(offset, offset + limit).map((s) => item(s, expand)),
    headers,
  );
}
