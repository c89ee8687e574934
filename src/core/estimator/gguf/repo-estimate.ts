/**
 * A GGUF repo's estimate: one estimate per quant file (shards of a file counted together), and an Estimate
 * whose headline (parameters, weights, serve memory) is the largest language-model file's, so everything
 * that reads estimates (advisories, badges, pages) works unchanged. Its fit table has one serve row per
 * (card, quant file): which quant fits which card. Vision projectors (architecture "clip", mmproj-*.gguf)
 * get their own estimate but never the headline. GGUF files are for inference: training memory is not planned.
 */
import type { Estimate } from "../estimate-json.ts";
import { FULL_BYTES_PER_PARAM, TRAIN_TOKENS } from "../memory.ts";
import { estimateGgufFile, type GgufFileEstimate } from "./file-estimate.ts";
import type { GgufHeader } from "./types.ts";

export type GgufEstimate = Estimate & { gguf: { files: GgufFileEstimate[] } };

const SHARD = /^(.*)-(\d{5})-of-(\d{5})\.gguf$/;

/** Files by the name people use: a sharded file's shards under the first shard's path, in shard order. */
export function groupGgufShards(files: [string, GgufHeader][]): [string, GgufHeader[]][] {
  const groups = new Map<string, [string, GgufHeader][]>();
  for (const [path, h] of files) {
    const m = SHARD.exec(path);
    const key = m ? `${m[1]}-*-of-${m[3]}.gguf` : path;
    groups.set(key, [...(groups.get(key) ?? []), [path, h]]);
  }
  return [...groups.values()]
    .map((list) => list.sort(([a], [b]) => a.localeCompare(b)))
    .map((list): [string, GgufHeader[]] => [list[0]![0], list.map(([, h]) => h)])
    .sort(([a], [b]) => a.localeCompare(b));
}

function figure(tokens: number, batch: number, breakdown: Record<string, number>) {
  let bytes = 0;
  for (const v of Object.values(breakdown)) bytes += v;
  return { bytes, tokens, batch, breakdown };
}

/** Quant labels made unique (two files both Q4_K_M: the second is named by its file). */
function uniqueLabels(files: GgufFileEstimate[]): GgufFileEstimate[] {
  const seen = new Set<string>();
  return files.map((f) => {
    const label = seen.has(f.quant) ? (f.path.split("/").pop() ?? f.path) : f.quant;
    seen.add(label);
    if (label === f.quant) return f;
    return { ...f, quant: label, fit: f.fit.map((r) => ({ ...r, mode: `serve ${label}` as const })) };
  });
}

/** The estimate of a revision's GGUF files (path -> stored header); throws when there is none. */
export function estimateGgufRepo(files: [string, GgufHeader][], version: string): GgufEstimate {
  const per = uniqueLabels(groupGgufShards(files).map(([path, hs]) => estimateGgufFile(path, hs)));
  const models = per.filter((f) => f.architecture !== "clip");
  const pool = models.length > 0 ? models : per;
  const head = [...pool].sort((a, b) => b.weight_bytes - a.weight_bytes || a.path.localeCompare(b.path))[0];
  if (!head) throw new Error("no GGUF file");
  const counts = new Set(models.map((f) => f.params));
  const warnings = [
    `GGUF repo: ${per.length} file(s); the headline is ${head.path} (${head.quant}), the largest; the fit table has one serve row per quant file`,
  ];
  if (counts.size > 1)
    warnings.push(
      `GGUF files disagree on parameters: ${models.map((f) => `${f.quant} ${f.params}`).join(", ")}`,
    );
  for (const f of per) warnings.push(...f.warnings.map((w) => `${f.path}: ${w}`));
  const why = "a GGUF file is for inference (llama.cpp, Ollama, LM Studio): training memory is not planned";
  return {
    estimator_version: version,
    model_type: head.architecture,
    family: "gguf",
    reader: { family: "gguf", confidence: "known" },
    params: {
      total: head.params,
      active: head.params,
      towers: {},
      tied_embedding: false,
      derived: null,
      source: "headers",
    },
    weights: {
      bytes: head.weight_bytes,
      stored_bytes: head.weight_bytes,
      by_dtype: head.bytes_by_type,
      source: "headers",
    },
    quantization: { method: `gguf ${head.quant}`, bits: head.bits_per_weight, group_size: null },
    memory: {
      full_finetune: figure(TRAIN_TOKENS, 1, {
        weights_grads_optimizer: Math.round(FULL_BYTES_PER_PARAM * head.params),
      }),
      lora: figure(TRAIN_TOKENS, 1, { base_weights: head.weight_bytes }),
      serve: figure(head.kv_cache.tokens, 0, { weights: head.weight_bytes }),
      kv_cache: figure(head.kv_cache.tokens, 1, { full: head.kv_cache.bytes }),
      lora_params: 0,
    },
    fit: per.flatMap((f) => f.fit),
    structure: [],
    missing: [{ figure: "full_finetune and lora fit", why }],
    warnings,
    gguf: { files: per },
  };
}
