/**
 * bamba (transformers modeling_bamba.py / configuration_bamba.py; Bamba-9B): layers listed in
 * `attn_layer_indices` are attention (Llama-style q/k/v/o without bias), the others a BambaMixer (Mamba2:
 * in_proj, conv1d, dt_bias, A_log, D, gated RMSNorm, out_proj; I = `mamba_expand` x hidden, `mamba_n_heads`
 * heads); every layer then a SwiGLU BambaMLP of `intermediate_size` without bias. RMSNorms before mixer
 * and MLP, final RMSNorm, untied LM head by default.
 */
import type { ConfigView } from "../config-view.ts";
import type { KvLayer, ModelReading } from "../types.ts";
import { bambaMambaSpec } from "./granite-moe.ts";
import { mamba2, mambaState } from "./hybrid-parts.ts";
import { fullKv, readQuantization, textReading, textTower } from "./moe-frame.ts";
import { gatedMlp, gqaAttention, type LayerSpec } from "./moe-parts.ts";
import { textDims } from "./qwen3-moe.ts";

/** bamba: Mamba2 layers with attention at `attn_layer_indices`, SwiGLU MLP on every layer. */
export function readBamba(cfg: ConfigView): ModelReading {
  const d = textDims(cfg);
  const indices = new Set((cfg.optArray("attn_layer_indices") ?? []) as number[]);
  for (const i of indices) {
    if (!Number.isInteger(i) || i < 0 || i >= d.layers)
      cfg.fail("attn_layer_indices", `${String(i)} is not a layer index below ${d.layers}`);
  }
  const attn = gqaAttention({ hidden: d.hidden, heads: d.heads, kvHeads: d.kvHeads, headDim: d.headDim });
  const spec = bambaMambaSpec(cfg, d.hidden);
  const mamba = mamba2(spec);
  const mlp = gatedMlp(d.hidden, cfg.int("intermediate_size"));
  const layers: LayerSpec[] = [];
  const kvLayers: KvLayer[] = [];
  const kv = fullKv(d.kvHeads, d.headDim);
  const state = mambaState(spec);
  for (let i = 0; i < d.layers; i++) {
    const isAttn = indices.has(i);
    layers.push({
      mixer: isAttn ? attn : mamba,
      mixerName: isAttn ? "Attention" : "Mamba2",
      ffn: mlp,
      norm1: d.hidden,
      norm2: d.hidden,
    });
    kvLayers.push(isAttn ? kv : state);
  }
  const tied = cfg.bool("tie_word_embeddings", false);
  return textReading({
    cfg,
    family: "bamba",
    hidden: d.hidden,
    vocab: d.vocab,
    context: d.context,
    tied,
    towers: [textTower(d, layers, tied)],
    kvLayers,
    quantization: readQuantization(cfg),
  });
}
