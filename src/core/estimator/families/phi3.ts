/**
 * phi3 (modeling_phi3.py): Phi-3 / Phi-3.5 mini and medium, Phi-4 and Phi-4-mini.
 * Per layer: input_layernorm and post_attention_layernorm (RMSNorm), a fused qkv_proj
 * (h -> (heads + 2 kv) x head_dim, no bias) and o_proj (no bias), a fused gate_up_proj (h -> 2I, no bias)
 * and down_proj; final RMSNorm; LM head untied by default (Phi-4-mini ties it). head_dim from the
 * config, else h / heads; partial_rotary_factor (Phi-4-mini) and longrope scaling change no parameter
 * count. When the config sets sliding_window every layer's attention (and cache) is windowed.
 * Rotary inv_freq is a non-persistent buffer: nothing extra is stored.
 */
import type { ConfigView } from "../config-view.ts";
import type { ModelReading } from "../types.ts";
import { decoderDims } from "./dense-decoder.ts";
import { gatedMlp, gqaAttention, lin } from "./moe-parts.ts";
import { sameKv, uniformDecoder } from "./uniform-decoder.ts";

/** phi3: Llama-shaped layers with fused qkv and gate_up projections. */
export function readPhi3(cfg: ConfigView): ModelReading {
  const d = decoderDims(cfg);
  const attn = gqaAttention({ hidden: d.hidden, heads: d.heads, kvHeads: d.kvHeads, headDim: d.headDim });
  const q = d.heads * d.headDim;
  attn.linears = [lin(d.hidden, q + 2 * d.kvHeads * d.headDim), lin(q, d.hidden)];
  const mlp = gatedMlp(d.hidden, d.inter);
  mlp.linears = [lin(d.hidden, 2 * d.inter), lin(d.inter, d.hidden)];
  return uniformDecoder({
    cfg,
    family: "phi3",
    d,
    attn,
    ffn: mlp,
    norm: d.hidden,
    normType: "RMSNorm",
    shape: "pre",
    tied: cfg.bool("tie_word_embeddings", false),
    kvLayers: sameKv(d, cfg.has("sliding_window") ? cfg.int("sliding_window") : undefined),
  });
}
