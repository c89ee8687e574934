import { handleCommits, handlePathsInfo, handleTree } from "./api-routes.ts";
import { type CdnSigner, redirectToCdn } from "./cdn.ts";
import { faultedEntry, handleFile, sendMissingRevision } from "./file-routes.ts";
import { type Ctx, sendError } from "./http-util.ts";
import { handleRevision } from "./model-info.ts";
import { handleModelList } from "./models-listing.ts";
import { entryOf, type RepoState, resolveRevision, visibleTo } from "./repo-state.ts";
import type { FaultRule, Parsed, Route } from "./types.ts";

const API =
  /^\/api\/models\/([^/]+)\/([^/]+)(?:\/(commits|tree|paths-info|revision)(?:\/([^/]+)(?:\/(.*))?)?)?$/;
const FILE = /^\/([^/]+)\/([^/]+)\/(resolve|raw)\/([^/]+)\/(.+)$/;

function decodePath(p: string): string {
  return p
    .split("/")
    .map((s) => decodeURIComponent(s))
    .join("/");
}

export function parseRoute(pathname: string): Parsed {
  if (pathname === "/api/models" || pathname === "/api/models/") return { route: "models" };
  const api = API.exec(pathname);
  if (api) {
    const route = (api[3] ?? "revision") as Route;
    const rev = api[4] ?? "main";
    // listCommits sends the revision unencoded: keep any slashes that follow for commits.
    const rest = api[5] ? decodePath(api[5]) : undefined;
    return {
      route,
      repo: `${api[1]}/${api[2]}`,
      rev: route === "commits" && rest ? `${rev}/${rest}` : rev,
      rest,
    };
  }
  const file = FILE.exec(pathname);
  if (file)
    return {
      route: file[3] as Route,
      repo: `${file[1]}/${file[2]}`,
      rev: file[4],
      rest: decodePath(file[5]!),
    };
  return { route: "other" };
}

function bearer(ctx: Ctx): string | undefined {
  const h = ctx.req.headers.authorization;
  return h?.startsWith("Bearer ") ? h.slice(7) : undefined;
}

/** Gated repos: metadata is public, file contents need a granted token (401 none / 403 not granted). */
function gatedRefusal(ctx: Ctx, state: RepoState, route: Route): boolean {
  if (!state.spec.gated || (route !== "resolve" && route !== "raw")) return false;
  const token = bearer(ctx);
  if (token && state.spec.tokens?.includes(token)) return false;
  const msg = `Access to model ${state.spec.id} is restricted. You must have access to it and be authenticated to access it. Please log in.`;
  sendError(ctx, token ? 403 : 401, "GatedRepo", msg);
  return true;
}

/** A repo that does not exist, or that the caller may not see: 401 when anonymous, 404 with a token. */
function sendRepoNotFound(ctx: Ctx): void {
  sendError(ctx, bearer(ctx) ? 404 : 401, "RepoNotFound", "Repository not found");
}

/** Where `/resolve/` of LFS files redirects (absent: served directly) and, on the CDN origin, that it is it. */
export type DispatchOptions = { cdn?: { origin: string; signer: CdnSigner }; onCdn?: boolean };

/** Dispatches one parsed request against the repo states; `fault` is an already-taken safetensors/reset rule. */
export async function dispatch(
  ctx: Ctx,
  p: Parsed,
  repos: Map<string, RepoState>,
  fault: FaultRule | null,
  opts: DispatchOptions = {},
) {
  if (p.route === "models" && !opts.onCdn) return handleModelList(ctx, repos, bearer(ctx));
  if (p.route === "other" || p.route === "models" || !p.repo) return sendError(ctx, 404, null, "Not found");
  const state = repos.get(p.repo);
  // The CDN URL was signed for this file: no token needed there.
  if (!state || (!opts.onCdn && !visibleTo(state, bearer(ctx)))) return sendRepoNotFound(ctx);
  if (!opts.onCdn && gatedRefusal(ctx, state, p.route)) return;
  const commit = resolveRevision(state, p.rev ?? "main");
  if (!commit) return sendMissingRevision(ctx, p.rev ?? "main");
  const method = ctx.req.method ?? "GET";
  if (p.route === "paths-info" && method === "POST") return handlePathsInfo(ctx, state, commit);
  if (method !== "GET" && method !== "HEAD") return sendError(ctx, 405, null, "Method not allowed");
  if (p.route === "commits") return handleCommits(ctx, state, commit);
  if (p.route === "tree") return handleTree(ctx, state, commit, p.rest ?? "");
  if (p.route === "revision") return handleRevision(ctx, state, commit);
  let entry = entryOf(commit, p.rest ?? "");
  if (entry?.lfs && p.route === "resolve" && opts.cdn)
    return redirectToCdn(ctx, opts.cdn, state.spec.id, commit, entry);
  if (entry && fault?.kind === "safetensors") entry = faultedEntry(entry, fault.mode);
  const reset = fault?.kind === "reset" ? (fault.afterBytes ?? 1 << 30) : undefined;
  return handleFile(ctx, commit, p.rest ?? "", entry, reset);
}
