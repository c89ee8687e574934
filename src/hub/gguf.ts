/**
 * A GGUF file's header read with @huggingface/gguf by Range requests (2 MB chunks until the metadata and
 * tensor infos are read), never the tensor data, and reduced to what hubwatch stores (GgufHeader): long
 * arrays (vocabulary, scores, merges) become their length and sha256, the special tokens their text.
 */
import { createHash } from "node:crypto";
import { type GGUFParseOutput, gguf } from "@huggingface/gguf";
import { ggmlType } from "../core/estimator/gguf/ggml-types.ts";
import {
  GGUF_ARRAY_KEEP,
  type GgufHeader,
  type GgufMetaValue,
  unknownTypeName,
} from "../core/estimator/gguf/types.ts";
import { HubBadDataError, HubError } from "./errors.ts";
import { type HubOptions, hubFetch, resolveUrl, withRetry } from "./fetch.ts";

export type ReadGgufArgs = HubOptions & { repo: string; sha: string; path: string };

type Scalar = string | number | boolean;

function scalar(v: unknown): Scalar {
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return v;
  return String(v);
}

function metaValue(v: unknown): GgufMetaValue {
  if (!Array.isArray(v)) return scalar(v);
  if (v.length <= GGUF_ARRAY_KEEP && v.every((x) => !Array.isArray(x))) return v.map(scalar);
  const hash = createHash("sha256");
  for (const x of v) hash.update(`${JSON.stringify(typeof x === "bigint" ? Number(x) : x)}\n`);
  return { array_length: v.length, sha256: hash.digest("hex") };
}

function tokenText(meta: Record<string, unknown>, key: string): string | undefined {
  const id = meta[key];
  const tokens = meta["tokenizer.ggml.tokens"];
  if ((typeof id !== "number" && typeof id !== "bigint") || !Array.isArray(tokens)) return undefined;
  const t = tokens[Number(id)];
  return typeof t === "string" ? t : undefined;
}

/** The stored form of a parsed header; `fileSize` from the server or the file system. */
export function summarizeGguf(parsed: GGUFParseOutput, fileSize: number | null): GgufHeader {
  const raw = parsed.metadata as unknown as Record<string, unknown>;
  const metadata: Record<string, GgufMetaValue> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (k === "version" || k === "tensor_count" || k === "kv_count") continue;
    metadata[k] = metaValue(v);
  }
  const tokens: GgufHeader["tokens"] = {};
  const bos = tokenText(raw, "tokenizer.ggml.bos_token_id");
  const eos = tokenText(raw, "tokenizer.ggml.eos_token_id");
  if (bos !== undefined) tokens.bos = bos;
  if (eos !== undefined) tokens.eos = eos;
  return {
    format: "gguf",
    version: Number(raw.version),
    metadata,
    tensors: parsed.tensorInfos.map((t) => ({
      name: t.name,
      shape: t.shape.map(Number),
      type: ggmlType(t.dtype)?.name ?? unknownTypeName(t.dtype),
    })),
    tokens,
    header_bytes: Number(parsed.tensorDataOffset),
    file_size: fileSize,
  };
}

/** A fetch that hands the parser only the bytes it asked for, even from a server that ignores Range. */
function rangeOnly(base: typeof fetch): typeof fetch {
  return async (input, init) => {
    const res = await base(input, init);
    if (res.status !== 200) return res;
    const m = /bytes=(\d+)-(\d+)/.exec(new Headers(init?.headers).get("range") ?? "");
    if (!m) return res;
    const start = Number(m[1]);
    const end = Number(m[2]) + 1;
    const out = new Uint8Array(end);
    let got = 0;
    const reader = res.body?.getReader();
    while (reader && got < end) {
      const { done, value } = await reader.read();
      if (done) break;
      const take = Math.min(value.byteLength, end - got);
      out.set(value.subarray(0, take), got);
      got += take;
    }
    await reader?.cancel().catch(() => {});
    const total = res.headers.get("content-length") ?? "*";
    return new Response(out.subarray(start, got), {
      status: 206,
      headers: { "content-range": `bytes ${start}-${got - 1}/${total}` },
    });
  };
}

/** Reads and summarises one GGUF header; a file that is not GGUF (or is cut short) -> HubBadDataError. */
export async function readGgufHeader(args: ReadGgufArgs): Promise<GgufHeader> {
  const url = resolveUrl(args, args.repo, args.sha, args.path);
  const headers: Record<string, string> = args.accessToken
    ? { Authorization: `Bearer ${args.accessToken}` }
    : {};
  return withRetry(args, async () => {
    let fileSize: number | null = null;
    const counted = hubFetch(args);
    const fetchRange: typeof fetch = async (input, init) => {
      const res = await rangeOnly(counted)(input, init);
      const total = /\/(\d+)\s*$/.exec(res.headers.get("content-range") ?? "");
      if (total) fileSize = Number(total[1]);
      return res;
    };
    try {
      const parsed = await gguf(url, { fetch: fetchRange, additionalFetchHeaders: headers });
      return summarizeGguf(parsed, fileSize);
    } catch (err) {
      if (err instanceof HubError) throw err;
      const why = err instanceof Error ? err.message : String(err);
      throw new HubBadDataError(`Bad GGUF header in ${args.repo}@${args.sha}/${args.path}: ${why}`, {
        code: "BadGgufHeader",
      });
    }
  });
}
