import { createHash } from "node:crypto";
import type { FileEntry, FileSpec } from "./types.ts";

const LFS_THRESHOLD = 10 * 1024 * 1024;
const cache = new Map<FileSpec, Omit<FileEntry, "path">>();
const CACHE_MAX = 2000;

/** git's blob id: sha1("blob <len>\0" + content). */
function gitBlobSha1(content: Buffer): string {
  return createHash("sha1").update(`blob ${content.length}\0`).update(content).digest("hex");
}

function sha256Hex(content: Buffer | string): string {
  return createHash("sha256").update(content).digest("hex");
}

/** Serialises a safetensors header the way the safetensors library does: u64 LE length, JSON, space padding to 8. */
export function encodeSafetensorsHeader(header: Record<string, unknown>): Buffer {
  let json = JSON.stringify(header);
  json += " ".repeat((8 - ((json.length + 8) % 8)) % 8);
  const body = Buffer.from(json, "utf8");
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(body.length));
  return Buffer.concat([len, body]);
}

function dataEnd(header: Record<string, unknown>): number {
  let end = 0;
  for (const [name, info] of Object.entries(header)) {
    if (name === "__metadata__") continue;
    const offsets = (info as { data_offsets: [number, number] }).data_offsets;
    end = Math.max(end, offsets[1]);
  }
  return end;
}

/** Bytes [start,end) of a file whose first bytes are `prefix` and whose remainder is a seeded pattern. */
function patterned(prefix: Buffer, seed: number, start: number, end: number): Buffer {
  const out = Buffer.alloc(Math.max(0, end - start));
  if (start < prefix.length) prefix.copy(out, 0, start, Math.min(end, prefix.length));
  if (seed !== 0) {
    for (let i = Math.max(start, prefix.length); i < end; i++) out[i - start] = (i * 31 + seed) & 0xff;
  }
  return out;
}

function lfsEntry(size: number, sha: string, prefix: Buffer, seed: number): Omit<FileEntry, "path"> {
  const pointer = `version https://git-lfs.github.com/spec/v1\noid sha256:${sha}\nsize ${size}\n`;
  return {
    size,
    oid: gitBlobSha1(Buffer.from(pointer)),
    lfs: { oid: sha, size, pointerSize: pointer.length },
    prefixLength: prefix.length,
    read: (start, end) => patterned(prefix, seed, start, end),
  };
}

function build(spec: FileSpec): Omit<FileEntry, "path"> {
  if (spec.kind === "text") {
    const buf = Buffer.from(spec.text, "utf8");
    const base = {
      size: buf.length,
      prefixLength: buf.length,
      read: (s: number, e: number) => buf.subarray(s, e),
    };
    if (buf.length < LFS_THRESHOLD) return { ...base, oid: gitBlobSha1(buf) };
    return { ...lfsEntry(buf.length, sha256Hex(buf), buf, 0) };
  }
  if (spec.kind === "safetensors") {
    const header = spec.header();
    const prefix = encodeSafetensorsHeader(header);
    // Stand-in for the sha256 of the full content, which is never materialised.
    return lfsEntry(prefix.length + dataEnd(header), sha256Hex(prefix), prefix, 0);
  }
  if (spec.kind === "gguf") {
    const { header, size } = spec.encode();
    return lfsEntry(size, sha256Hex(header), header, 0);
  }
  const seed = Number.parseInt(sha256Hex(spec.seed).slice(0, 2), 16) | 1;
  return lfsEntry(spec.size, sha256Hex(`${spec.seed}:${spec.size}`), Buffer.alloc(0), seed);
}

/** Materialises the metadata (size, oids) and a reader for a file spec; memoised, bounded. */
export function fileEntry(path: string, spec: FileSpec): FileEntry {
  let entry = cache.get(spec);
  if (!entry) {
    entry = build(spec);
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as FileSpec);
    cache.set(spec, entry);
  }
  return { path, ...entry };
}
