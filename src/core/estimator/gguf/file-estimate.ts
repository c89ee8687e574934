/**
 * One GGUF file (or one sharded file's shards together): exact parameters and weight bytes from its tensor
 * infos, and the KV cache from its metadata (architecture, context length, block count, heads), which give
 * serve memory and a serve verdict per card. Pure.
 *   params      = sum over tensors of prod(shape)
 *   weights     = sum over tensors of shape[0] / blockSize * typeSize * prod(shape[1:])  (ggml_row_size)
 *   KV / token  = sum over layers of (head_count_kv * key_length + head_count_kv * value_length) * 2 bytes
 *                 (llama.cpp's default f16 K and V cache; key/value length default embedding_length / head_count)
 *   serve       = weights + KV at min(context_length, 4096) tokens
 */
import { GGMLFileQuantizationType, parseGGUFQuantLabel } from "@huggingface/gguf";
import type { FitJson } from "../estimate-json.ts";
import { CARDS, cell, NO_SPLIT } from "../fit.ts";
import { SERVE_TOKENS } from "../memory.ts";
import { ggmlTypeByName, tensorBytes } from "./ggml-types.ts";
import type { GgufHeader, GgufMetaValue } from "./types.ts";

/** llama.cpp's default KV cache type is f16: 2 bytes per element. */
const KV_BYTES = 2;

export type GgufFileEstimate = {
  path: string;
  /** The file's quantization as people name it (Q4_K_M...), from general.file_type or the file name. */
  quant: string;
  architecture: string;
  name: string | null;
  params: number;
  weight_bytes: number;
  bits_per_weight: number;
  /** Weight bytes and tensor counts per ggml type. */
  bytes_by_type: Record<string, number>;
  tensors_by_type: Record<string, number>;
  context_length: number | null;
  block_count: number | null;
  head_count: number | null;
  head_count_kv: number | null;
  kv_bytes_per_token: number;
  kv_cache: { tokens: number; bytes: number };
  serve_bytes: number;
  fit: FitJson[];
  warnings: string[];
};

function num(v: GgufMetaValue | undefined): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/** A per-layer value: a number for every layer, or an array of one per layer. */
function perLayer(v: GgufMetaValue | undefined, layers: number): number[] | null {
  if (typeof v === "number") return Array.from({ length: layers }, () => v);
  if (Array.isArray(v) && v.every((x) => typeof x === "number")) return v as number[];
  return null;
}

/** The quant label of a file: general.file_type's name, else a label in the file name, else "mixed". */
function quantLabel(path: string, meta: Record<string, GgufMetaValue>): string {
  const ft = num(meta["general.file_type"]);
  const named = ft === null ? undefined : GGMLFileQuantizationType[ft];
  if (named) return named;
  return parseGGUFQuantLabel(path.split("/").pop() ?? path) ?? "mixed";
}

type Tally = { params: number; bytes: number; byType: Record<string, number>; count: Record<string, number> };

function tally(h: GgufHeader, warnings: string[]): Tally {
  const out: Tally = { params: 0, bytes: 0, byType: {}, count: {} };
  for (const t of h.tensors) {
    let n = 1;
    for (const d of t.shape) n *= d;
    out.params += n;
    out.count[t.type] = (out.count[t.type] ?? 0) + 1;
    const type = ggmlTypeByName(t.type);
    const bytes = type ? tensorBytes(type, t.shape) : null;
    if (bytes === null) {
      warnings.push(`${t.name}: type ${t.type} with shape [${t.shape.join(", ")}] has no known size`);
      continue;
    }
    out.bytes += bytes;
    out.byType[t.type] = (out.byType[t.type] ?? 0) + bytes;
  }
  return out;
}

type Attention = { layers: number; heads: number | null; kvHeads: number[] | null; perToken: number };

function attention(arch: string, meta: Record<string, GgufMetaValue>, warnings: string[]): Attention {
  const key = (k: string) => meta[`${arch}.${k}`];
  const layers = num(key("block_count")) ?? 0;
  const heads = perLayer(key("attention.head_count"), layers);
  const kvHeads = perLayer(key("attention.head_count_kv"), layers) ?? heads;
  const embd = num(key("embedding_length"));
  let perToken = 0;
  if (kvHeads && heads && embd !== null) {
    for (let i = 0; i < layers; i++) {
      const h = heads[i] ?? 0;
      const kv = kvHeads[i] ?? 0;
      const kLen = num(key("attention.key_length")) ?? (h > 0 ? embd / h : 0);
      const vLen = num(key("attention.value_length")) ?? kLen;
      perToken += kv * (kLen + vLen) * KV_BYTES;
    }
  } else if (layers > 0) {
    warnings.push(`${arch}: no attention heads in the metadata; KV cache not counted`);
  }
  if (key("attention.sliding_window") !== undefined)
    warnings.push(`${arch}: sliding-window layers counted at full context (an upper bound)`);
  if (key("attention.kv_lora_rank") !== undefined)
    warnings.push(`${arch}: MLA cache counted as full K and V heads (an upper bound)`);
  return { layers, heads: heads?.[0] ?? null, kvHeads, perToken };
}

/** Estimate of one GGUF file (shards of one file: headers in shard order, metadata from the first). */
export function estimateGgufFile(path: string, headers: GgufHeader[]): GgufFileEstimate {
  const first = headers[0]!;
  const meta = first.metadata;
  const warnings: string[] = [];
  const arch = typeof meta["general.architecture"] === "string" ? meta["general.architecture"] : "unknown";
  const t = tally({ ...first, tensors: headers.flatMap((h) => h.tensors) }, warnings);
  const ctx = num(meta[`${arch}.context_length`]);
  const att = attention(arch, meta, warnings);
  const tokens = ctx === null ? SERVE_TOKENS : Math.min(ctx, SERVE_TOKENS);
  const kvBytes = att.perToken * tokens;
  const quant = quantLabel(path, meta);
  const fit = CARDS.map(({ card, capacityGb }) => ({
    ...cell(card, capacityGb, "serve", { fixed: t.bytes, perSample: kvBytes }, NO_SPLIT),
  })).map((r) => ({
    card: r.card,
    capacity_gb: r.capacityGb,
    mode: `serve ${quant}` as const,
    verdict: r.verdict,
    batch: r.batch,
    split: r.split,
    text: r.text,
  }));
  return {
    path,
    quant,
    architecture: arch,
    name: typeof meta["general.name"] === "string" ? meta["general.name"] : null,
    params: t.params,
    weight_bytes: t.bytes,
    bits_per_weight: t.params > 0 ? Math.round(((t.bytes * 8) / t.params) * 100) / 100 : 0,
    bytes_by_type: t.byType,
    tensors_by_type: t.count,
    context_length: ctx,
    block_count: att.layers || null,
    head_count: att.heads,
    head_count_kv: att.kvHeads?.[0] ?? null,
    kv_bytes_per_token: att.perToken,
    kv_cache: { tokens, bytes: kvBytes },
    serve_bytes: t.bytes + kvBytes,
    fit,
    warnings,
  };
}
