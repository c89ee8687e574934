import { createHash } from "node:crypto";
import { type Ctx, readBody, sendError, sendJson } from "./http-util.ts";
import { entriesOf, type RepoState } from "./repo-state.ts";
import type { Commit, FileEntry } from "./types.ts";

const TREE_PAGE = 1000;

function apiCommit(c: Commit) {
  return {
    id: c.sha,
    title: c.title,
    message: c.message,
    authors: c.authors.map((user) => ({ user, avatar: `https://cdn-avatars.example/${user}.png` })),
    date: c.date,
  };
}

/** GET commits/:rev — newest first, `limit` (default 50, max 1000) and `p` pages, absolute Link next. */
export function handleCommits(ctx: Ctx, state: RepoState, head: Commit): void {
  const idx = state.history.findIndex((c) => c.sha === head.sha);
  const chain = state.history.slice(0, idx + 1).reverse();
  const limit = Math.min(1000, Math.max(1, Number(ctx.url.searchParams.get("limit") ?? 50) || 50));
  const page = Math.max(0, Number(ctx.url.searchParams.get("p") ?? 0) || 0);
  const items = chain.slice(page * limit, (page + 1) * limit);
  const headers: Record<string, string> = { "X-Total-Count": String(chain.length) };
  if ((page + 1) * limit < chain.length) {
    const next = new URL(ctx.url.pathname, ctx.origin);
    next.searchParams.set("p", String(page + 1));
    next.searchParams.set("limit", String(limit));
    headers.Link = `<${next.href}>; rel="next"`;
  }
  sendJson(ctx, 200, items.map(apiCommit), headers);
}

function lastCommitOf(state: RepoState, head: Commit, path: string) {
  const chain = state.history.slice(0, state.history.findIndex((c) => c.sha === head.sha) + 1);
  const oidAt = (c: Commit) => c.files.get(path);
  let found = chain.at(-1)!;
  for (let i = chain.length - 1; i > 0 && oidAt(chain[i - 1]!) === oidAt(found); i--) found = chain[i - 1]!;
  return { id: found.sha, title: found.title, date: found.date };
}

type TreeItem = Record<string, unknown> & { path: string };

function fileItem(e: FileEntry, expand: boolean, state: RepoState, head: Commit): TreeItem {
  const item: TreeItem = { type: "file", oid: e.oid, size: e.size, path: e.path };
  if (e.lfs) item.lfs = e.lfs;
  if (expand) item.lastCommit = lastCommitOf(state, head, e.path);
  return item;
}

function dirsOf(files: FileEntry[]): TreeItem[] {
  const dirs = new Map<string, ReturnType<typeof createHash>>();
  for (const f of files) {
    const parts = f.path.split("/");
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join("/");
      if (!dirs.has(dir)) dirs.set(dir, createHash("sha1"));
      dirs.get(dir)!.update(`${f.path}:${f.oid}\n`);
    }
  }
  return [...dirs].map(([path, h]) => ({ type: "directory", oid: h.digest("hex"), size: 0, path }));
}

/** All entries (files and directories) of a revision, optionally with lastCommit. */
function treeItems(state: RepoState, head: Commit, expand: boolean): TreeItem[] {
  const files = entriesOf(head);
  return [...dirsOf(files), ...files.map((f) => fileItem(f, expand, state, head))];
}

/** GET tree/:rev[/path]?recursive=&expand=&cursor= — directories too; paginated with an opaque cursor. */
export function handleTree(ctx: Ctx, state: RepoState, head: Commit, path: string): void {
  const recursive = ctx.url.searchParams.get("recursive") === "true";
  const expand = ctx.url.searchParams.get("expand") === "true";
  const prefix = path ? `${path.replace(/\/+$/, "")}/` : "";
  const all = treeItems(state, head, expand);
  const under = all.filter((i) => i.path.startsWith(prefix));
  if (prefix && under.length === 0) {
    sendError(ctx, 404, "EntryNotFound", `${path} does not exist on "${head.sha}"`);
    return;
  }
  const listed = recursive ? under : under.filter((i) => !i.path.slice(prefix.length).includes("/"));
  listed.sort((a, b) => (a.type === b.type ? a.path.localeCompare(b.path) : a.type === "directory" ? -1 : 1));
  const offset = Number(Buffer.from(ctx.url.searchParams.get("cursor") ?? "", "base64url").toString() || 0);
  const headers: Record<string, string> = {};
  if (offset + TREE_PAGE < listed.length) {
    const next = new URL(ctx.url.href.replace(ctx.url.origin, ctx.origin));
    next.searchParams.set("cursor", Buffer.from(String(offset + TREE_PAGE)).toString("base64url"));
    headers.Link = `<${next.href}>; rel="next"`;
  }
  sendJson(ctx, 200, listed.slice(offset, offset + TREE_PAGE), headers);
}

/** POST paths-info/:rev {paths, expand} — entries for the paths that exist; missing ones are omitted. */
export async function handlePathsInfo(ctx: Ctx, state: RepoState, head: Commit): Promise<void> {
  let body: { paths?: unknown; expand?: unknown };
  try {
    body = JSON.parse(await readBody(ctx.req)) as typeof body;
  } catch {
    return sendError(ctx, 400, null, "Invalid JSON body");
  }
  if (!Array.isArray(body.paths)) return sendError(ctx, 400, null, "paths must be an array");
  const wanted = new Set(body.paths.map(String));
  const items = treeItems(state, head, body.expand === true).filter((i) => wanted.has(i.path));
  sendJson(ctx, 200, items);
}
