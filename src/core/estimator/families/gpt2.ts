import type { ConfigView } from "../config-view.ts";
import { divisible } from "../config-view.ts";
import type { ModelReading, StructureNode } from "../types.ts";
import {
  add,
  asHead,
  at,
  attention,
  decoderReading,
  embedding,
  geluMlp,
  kvFull,
  lmHead,
  norm,
  type Place,
  place,
  positionEmbedding,
} from "./blocks.ts";

/**
 * GPT-2 (modeling_gpt2.py): wte + wpe, pre-LN blocks with fused c_attn (bias) and c_proj, GELU MLP with
 * n_inner (default 4h), ln_f, LM head tied to wte. The stored h.N.attn.bias masks are buffers, not parameters.
 */
export function readGpt2(cfg: ConfigView): ModelReading {
  const h = cfg.int("n_embd");
  const layers = cfg.int("n_layer", { max: 10_000 });
  const heads = cfg.int("n_head", { max: 100_000 });
  const headDim = divisible(cfg, "n_embd", h, heads, "n_head");
  const inter = cfg.optInt("n_inner", 4 * h);
  const vocab = cfg.int("vocab_size");
  const positions = cfg.int("n_positions");
  const tied = cfg.bool("tie_word_embeddings", true);
  const p: Place = place(positions);
  const nodes: StructureNode[] = [embedding(p, vocab, h), positionEmbedding(p, positions, h)];
  const spec = { hidden: h, heads, kvHeads: heads, headDim, qkvBias: true, oBias: true, fused: true };
  for (let i = 1; i <= layers; i++) {
    const q: Place = at(p, i);
    nodes.push(
      norm(q, `LayerNorm_${i}_1`, "LayerNorm", h),
      attention(q, `Attention_${i}`, spec),
      add(q, `Add_${i}_attn`, h),
      norm(q, `LayerNorm_${i}_2`, "LayerNorm", h),
      geluMlp(q, `FFN_${i}`, h, inter),
      add(q, `Add_${i}_ffn`, h),
    );
  }
  nodes.push(
    ...asHead([norm(p, "LayerNorm_out", "LayerNorm", h), lmHead(p, h, vocab, tied ? "Embedding" : null)]),
  );
  const r = decoderReading({
    family: "gpt2",
    nodes,
    context: positions,
    vocab,
    hidden: h,
    tied,
    kvLayers: Array.from({ length: layers }, () => kvFull(heads, headDim)),
  });
  // The causal mask each attention module saves (1 x 1 x n_positions x n_positions).
  r.storedBuffers = [
    { suffix: "attn.bias", count: layers, scalarsEach: positions * positions, dtype: "F32" },
  ];
  return r;
}
