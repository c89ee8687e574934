import type { ConfigView } from "../config-view.ts";
import { divisible } from "../config-view.ts";
import type { KvLayer, ModelReading, StructureNode } from "../types.ts";
import {
  add,
  append,
  asHead,
  at,
  attention,
  decoderReading,
  embedding,
  kvFull,
  linear,
  lmHead,
  norm,
  type Place,
  place,
  rope,
  swiglu,
} from "./blocks.ts";

/** DeciLM's rule: int(2 * ffn_mult * hidden / 3) rounded up to a multiple of 256. */
function ffnMultToIntermediate(mult: number, hidden: number): number {
  const size = Math.trunc((2 * mult * hidden) / 3);
  return size % 256 === 0 ? size : size + 256 - (size % 256);
}

type Dims = { h: number; heads: number; headDim: number };

/** Attention part of one block: none (no_op), a linear replacement, or GQA (its KV entry appended to `kv`). */
function attentionPart(q: Place, a: ConfigView, d: Dims, kv: KvLayer[]): StructureNode[] {
  const i = q.layer!;
  if (a.bool("no_op", false)) return [];
  let attn: StructureNode;
  if (a.bool("replace_with_linear", false)) {
    attn = linear(q, `Attention_${i}`, "Linear (attention replaced)", d.h, d.h, false);
  } else {
    const group = a.int("n_heads_in_group", { max: d.heads });
    const kvHeads = divisible(a, "n_heads_in_group", d.heads, group, "n_heads_in_group");
    attn = attention(q, `Attention_${i}`, {
      hidden: d.h,
      heads: d.heads,
      kvHeads,
      headDim: d.headDim,
      qkvBias: false,
      oBias: false,
    });
    kv.push(kvFull(kvHeads, d.headDim));
  }
  return [norm(q, `RMSNorm_${i}_1`, "RMSNorm", d.h), attn, add(q, `Add_${i}_attn`, d.h)];
}

/** FFN part of one block: none, a linear replacement, or SwiGLU at ffn_mult. */
function ffnPart(q: Place, f: ConfigView, d: Dims): StructureNode[] {
  const i = q.layer!;
  if (f.bool("no_op", false)) return [];
  const ffn = f.bool("replace_with_linear", false)
    ? linear(q, `FFN_${i}`, "Linear (FFN replaced)", d.h, d.h, false)
    : swiglu(q, `FFN_${i}`, d.h, ffnMultToIntermediate(f.num("ffn_mult", { min: 1e-6, max: 1000 }), d.h));
  return [norm(q, `RMSNorm_${i}_2`, "RMSNorm", d.h), ffn, add(q, `Add_${i}_ffn`, d.h)];
}

function blockNodes(q: Place, b: ConfigView, d: Dims, kv: KvLayer[]): StructureNode[] {
  return [...attentionPart(q, b.sub("attention"), d, kv), ...ffnPart(q, b.sub("ffn"), d)];
}

/**
 * Nemotron-NAS / DeciLM (Llama-3_3-Nemotron-Super, modeling_decilm.py): Llama layers with per-layer
 * block_configs. Attention: no_op (skipped, no norm), replace_with_linear (hidden x hidden, no bias), or GQA with
 * num_attention_heads / n_heads_in_group kv heads. FFN: no_op, replace_with_linear, or SwiGLU at ffn_mult.
 */
export function readNemotronNas(cfg: ConfigView): ModelReading {
  const h = cfg.int("hidden_size");
  const heads = cfg.int("num_attention_heads", { max: 100_000 });
  const headDim = cfg.has("head_dim")
    ? cfg.int("head_dim")
    : divisible(cfg, "hidden_size", h, heads, "num_attention_heads");
  const vocab = cfg.int("vocab_size");
  const context = cfg.has("max_position_embeddings") ? cfg.int("max_position_embeddings") : null;
  const tied = cfg.bool("tie_word_embeddings", false);
  const blocks = cfg.list("block_configs");
  if (cfg.has("num_hidden_layers") && cfg.int("num_hidden_layers", { max: 10_000 }) !== blocks.length) {
    cfg.fail(
      "block_configs",
      `${blocks.length} entries but num_hidden_layers is ${String(cfg.raw.num_hidden_layers)}`,
    );
  }
  const p: Place = place(context ?? 2048);
  const nodes: StructureNode[] = [embedding(p, vocab, h), rope(p, h)];
  const kvLayers: KvLayer[] = [];
  blocks.forEach((b, idx) => {
    append(nodes, blockNodes(at(p, idx + 1), b, { h, heads, headDim }, kvLayers));
  });
  nodes.push(
    ...asHead([norm(p, "RMSNorm_out", "RMSNorm", h), lmHead(p, h, vocab, tied ? "Embedding" : null)]),
  );
  return decoderReading({ family: "nemotron-nas", nodes, context, vocab, hidden: h, tied, kvLayers });
}
