import { downloadText } from "./download-text.ts";
import { HubBadDataError } from "./errors.ts";
import type { HubOptions } from "./fetch.ts";
import type { HubFile } from "./list-tree.ts";
import { readSafetensorsHeader, type SafetensorsHeader, type TensorInfo } from "./safetensors.ts";
import { parseUpstream, SafetensorsIndexSchema } from "./schema.ts";

const INDEX_PATH = "model.safetensors.index.json";

type WeightHeaders = {
  /** All tensors of all weight files, in file order; `file` says which file holds each. */
  tensors: (TensorInfo & { file: string })[];
  files: {
    path: string;
    size: number;
    headerBytes: number;
    tensorCount: number;
    metadata: Record<string, string> | null;
  }[];
  /** Bytes of headers read (8-byte prefixes included), across files. */
  headerBytes: number;
  /** The index used, or null for unsharded weights. */
  indexPath: string | null;
};

function safeShardName(name: string): boolean {
  const control = [...name].some((ch) => ch.charCodeAt(0) < 32 || ch.charCodeAt(0) === 127);
  return !(
    control ||
    name.includes("..") ||
    name.startsWith("/") ||
    name.includes("\\") ||
    /^\w+:/.test(name)
  );
}

/** Shard paths named by the index's weight_map, checked against the tree. */
async function shardsFromIndex(
  args: HubOptions & { repo: string; sha: string; tree: HubFile[] },
  index: HubFile,
) {
  const text = await downloadText({ ...args, path: index.path, maxBytes: 50_000_000, size: index.size });
  if (text === null)
    throw new HubBadDataError(`${index.path} listed in the tree but missing`, { code: "Malformed" });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new HubBadDataError(`${args.repo}@${args.sha}/${index.path} is not JSON`, { code: "Malformed" });
  }
  const parsed = parseUpstream(SafetensorsIndexSchema, json, index.path);
  const dir = index.path.includes("/") ? index.path.slice(0, index.path.lastIndexOf("/") + 1) : "";
  const names = [...new Set(Object.values(parsed.weight_map))];
  const bad = names.find((n) => !safeShardName(n));
  if (bad) throw new HubBadDataError(`Unsafe shard name in ${index.path}: ${bad}`, { code: "Malformed" });
  return names.map((n) => {
    const file = args.tree.find((f) => f.path === dir + n);
    if (!file)
      throw new HubBadDataError(`${index.path} names ${n}, which is not in the tree`, { code: "Malformed" });
    return file;
  });
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * Headers of a revision's weights: the shards named by model.safetensors.index.json when present,
 * else every root-level *.safetensors. Reads headers only (Range requests), `concurrency` files at once.
 */
export async function readWeightHeaders(
  args: HubOptions & {
    repo: string;
    sha: string;
    tree: HubFile[];
    maxHeaderBytes?: number;
    concurrency?: number;
  },
): Promise<WeightHeaders> {
  const index = args.tree.find((f) => f.path === INDEX_PATH);
  const files = index
    ? await shardsFromIndex(args, index)
    : args.tree.filter((f) => !f.path.includes("/") && f.path.endsWith(".safetensors"));
  const headers: SafetensorsHeader[] = await mapLimit(files, args.concurrency ?? 4, (f) =>
    readSafetensorsHeader({ ...args, path: f.path }),
  );
  return {
    tensors: headers.flatMap((h) => h.tensors.map((t) => ({ ...t, file: h.path }))),
    files: headers.map((h, i) => ({
      path: h.path,
      size: files[i]!.size,
      headerBytes: h.headerBytes,
      tensorCount: h.tensors.length,
      metadata: h.metadata,
    })),
    headerBytes: headers.reduce((a, h) => a + h.headerBytes, 0),
    indexPath: index?.path ?? null,
  };
}
