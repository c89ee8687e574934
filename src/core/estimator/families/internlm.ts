/**
 * internlm2 and internlm3: trust_remote_code models; counted against the modeling files published with
 * the checkpoints (modeling_internlm2.py, modeling_internlm3.py).
 * internlm2: tok_embeddings; per layer attention_norm and ffn_norm (RMSNorm), a fused wqkv
 * (h -> (heads + 2 kv) x head_dim) and wo, both with `bias` (class default true; the published configs
 * set false), feed_forward w1 / w3 (h -> I) and w2 (I -> h) without bias; norm; untied `output` head.
 * internlm3: Llama-shaped q/k/v_proj with qkv_bias, o_proj with `bias`, SwiGLU gate/up/down with
 * `bias`, input / post_attention RMSNorms, head_dim from the config; untied LM head.
 * model_type "internlm" names InternLM (v1: Llama-shaped, q/k/v/o with `bias`, default true, MLP without)
 * and also the first InternLM2 releases, whose configs say InternLM2ForCausalLM in architectures.
 * Rotary inv_freq buffers are non-persistent.
 */
import type { ConfigView } from "../config-view.ts";
import type { ModelReading } from "../types.ts";
import { type DecoderDims, decoderDims, readDenseDecoder } from "./dense-decoder.ts";
import { gatedMlp, lin, type Piece } from "./moe-parts.ts";
import { dimsAttention, sameKv, uniformDecoder } from "./uniform-decoder.ts";

function reading(cfg: ConfigView, family: string, d: DecoderDims, attn: Piece, mlp: Piece): ModelReading {
  return uniformDecoder({
    cfg,
    family,
    d,
    attn,
    ffn: mlp,
    norm: d.hidden,
    normType: "RMSNorm",
    shape: "pre",
    tied: cfg.bool("tie_word_embeddings", false),
    kvLayers: sameKv(d),
  });
}

/** internlm2: fused wqkv, SwiGLU w1/w3/w2. */
export function readInternlm2(cfg: ConfigView): ModelReading {
  const d = decoderDims(cfg);
  const attn = dimsAttention(d, cfg.bool("bias", true));
  const q = d.heads * d.headDim;
  attn.linears = [lin(d.hidden, q + 2 * d.kvHeads * d.headDim), lin(q, d.hidden)];
  return reading(cfg, "internlm2", d, attn, gatedMlp(d.hidden, d.inter));
}

/** internlm3: separate q/k/v with qkv_bias, o_proj and MLP with bias. */
export function readInternlm3(cfg: ConfigView): ModelReading {
  const d = decoderDims(cfg);
  const attn = dimsAttention(d, cfg.bool("qkv_bias", false), cfg.bool("bias", false));
  return reading(cfg, "internlm3", d, attn, gatedMlp(d.hidden, d.inter, cfg.bool("bias", false)));
}

/** internlm: InternLM v1, or InternLM2 where the architectures say so. */
export function readInternlm(cfg: ConfigView): ModelReading {
  const archs = cfg.optArray("architectures") ?? [];
  if (archs.some((a) => typeof a === "string" && a.startsWith("InternLM2"))) {
    const r = readInternlm2(cfg);
    r.warnings.push("model_type internlm with InternLM2 architectures: read as internlm2");
    return r;
  }
  const bias = cfg.bool("bias", true);
  return readDenseDecoder(cfg, {
    family: "internlm",
    qkvBias: bias,
    oBias: bias,
    qkNorm: false,
    mlpBias: false,
    tieDefault: false,
    slidingByDefault: false,
  });
}
