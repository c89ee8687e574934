import type { ConfigView } from "../config-view.ts";
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
  rope,
} from "./blocks.ts";
import { decoderDims } from "./dense-decoder.ts";

/**
 * Phi-1/1.5/2 (modeling_phi.py): one LayerNorm per layer feeding attention and MLP in parallel (q/k/v/dense
 * with bias, optional per-head q/k LayerNorm), fc1/fc2 GELU MLP with bias, final LayerNorm, untied LM head with bias.
 */
export function readPhi(cfg: ConfigView): ModelReading {
  const d = decoderDims(cfg);
  const qkLn = cfg.bool("qk_layernorm", false);
  const tied = cfg.bool("tie_word_embeddings", false);
  const p: Place = place(d.context ?? 2048);
  const spec = {
    hidden: d.hidden,
    heads: d.heads,
    kvHeads: d.kvHeads,
    headDim: d.headDim,
    qkvBias: true,
    oBias: true,
  };
  const nodes: StructureNode[] = [embedding(p, d.vocab, d.hidden), rope(p, d.hidden)];
  for (let i = 1; i <= d.layers; i++) {
    const q: Place = at(p, i);
    const attn = attention(q, `Attention_${i}`, spec);
    if (qkLn) attn.params += 4 * d.headDim; // q_layernorm and k_layernorm, weight + bias each
    const mlp = geluMlp(q, `FFN_${i}`, d.hidden, d.inter);
    mlp.type = "GELU MLP (parallel)";
    nodes.push(norm(q, `LayerNorm_${i}`, "LayerNorm", d.hidden), attn, mlp, add(q, `Add_${i}`, d.hidden));
  }
  nodes.push(
    ...asHead([
      norm(p, "LayerNorm_out", "LayerNorm", d.hidden),
      lmHead(p, d.hidden, d.vocab, tied ? "Embedding" : null, true),
    ]),
  );
  return decoderReading({
    family: "phi",
    nodes,
    context: d.context,
    vocab: d.vocab,
    hidden: d.hidden,
    tied,
    kvLayers: Array.from({ length: d.layers }, () => kvFull(d.kvHeads, d.headDim)),
  });
}
