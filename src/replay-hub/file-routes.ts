import { once } from "node:events";
import { type Ctx, parseRange, sendError } from "./http-util.ts";
import type { Commit, FaultRule, FileEntry } from "./types.ts";

const CHUNK = 1 << 20;

/** A safetensors file as a faulty upload would leave it (bad length prefix, cut header, garbage JSON). */
export function faultedEntry(
  e: FileEntry,
  mode: Extract<FaultRule, { kind: "safetensors" }>["mode"],
): FileEntry {
  const prefix = Buffer.from(e.read(0, e.prefixLength));
  if (mode === "truncate") {
    const size = 8 + Math.floor((e.prefixLength - 8) / 2);
    return { ...e, size, prefixLength: size, read: (s, end) => prefix.subarray(s, Math.min(end, size)) };
  }
  if (mode === "zero-length") prefix.writeBigUInt64LE(0n);
  if (mode === "huge-length") prefix.writeBigUInt64LE(2n ** 60n);
  if (mode === "not-json") prefix.fill(0x7b, 8, Math.min(prefix.length, 24));
  return {
    ...e,
    read: (s, end) => Buffer.concat([prefix.subarray(s, end), e.read(Math.max(s, prefix.length), end)]),
  };
}

function fileHeaders(e: FileEntry, commit: Commit, path: string): Record<string, string> {
  const etag = `"${e.lfs?.oid ?? e.oid}"`;
  const name = path.split("/").at(-1)!;
  return {
    ETag: etag,
    "X-Linked-Etag": etag,
    "X-Linked-Size": String(e.size),
    "X-Repo-Commit": commit.sha,
    "Accept-Ranges": "bytes",
    "Content-Type": path.endsWith(".json")
      ? "application/json"
      : e.lfs
        ? "application/octet-stream"
        : "text/plain; charset=utf-8",
    "Content-Disposition": `inline; filename*=UTF-8''${encodeURIComponent(name)}; filename="${name}";`,
    "Cache-Control": "private, max-age=0",
  };
}

async function writeBody(
  ctx: Ctx,
  e: FileEntry,
  start: number,
  end: number,
  resetAfter?: number,
): Promise<void> {
  const stop = resetAfter === undefined ? end : Math.min(end, start + resetAfter);
  for (let pos = start; pos < stop; pos += CHUNK) {
    if (ctx.res.destroyed) return;
    if (!ctx.res.write(e.read(pos, Math.min(stop, pos + CHUNK)))) await once(ctx.res, "drain");
  }
  if (resetAfter !== undefined) {
    // Give the bytes a moment to leave, then cut the connection mid-body.
    await new Promise((r) => setTimeout(r, 20));
    ctx.res.socket?.destroy();
    return;
  }
  ctx.res.end();
}

/** GET|HEAD resolve|raw/:rev/*path — served directly (no redirect), Range -> 206 with Content-Range. */
export async function handleFile(
  ctx: Ctx,
  commit: Commit,
  path: string,
  entry: FileEntry | null,
  reset?: number,
) {
  if (!entry) {
    ctx.res.writeHead(404, {
      "Content-Type": "text/plain; charset=utf-8",
      "X-Error-Code": "EntryNotFound",
      "X-Error-Message": "Entry not found",
    });
    ctx.res.end(ctx.req.method === "HEAD" ? undefined : "Entry not found");
    return;
  }
  const headers = fileHeaders(entry, commit, path);
  const range = parseRange(ctx.req.headers.range, entry.size);
  if (range === "invalid") {
    ctx.res.writeHead(416, { ...headers, "Content-Range": `bytes */${entry.size}` });
    ctx.res.end();
    return;
  }
  const { start, end } = range ?? { start: 0, end: entry.size };
  headers["Content-Length"] = String(end - start);
  if (range) headers["Content-Range"] = `bytes ${start}-${end - 1}/${entry.size}`;
  ctx.res.writeHead(range ? 206 : 200, headers);
  if (ctx.req.method === "HEAD") return void ctx.res.end();
  const resetAfter = reset === undefined ? undefined : Math.min(reset, Math.floor((end - start) / 2));
  await writeBody(ctx, entry, start, end, resetAfter);
}

export function sendMissingRevision(ctx: Ctx, rev: string): void {
  sendError(ctx, 404, "RevisionNotFound", `Invalid rev id: ${decodeURIComponentSafe(rev)}`);
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
