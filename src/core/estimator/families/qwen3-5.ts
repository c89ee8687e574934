/**
 * qwen3_5 and qwen3_5_moe (modeling_qwen3_5.py / modeling_qwen3_5_moe.py): a hybrid text decoder
 * whose layer_types mix Gated DeltaNet ("linear_attention") and gated full attention (q_proj emits
 * q and an output gate, per-head q/k RMSNorm), SwiGLU or routed MoE (+ shared expert with a sigmoid
 * gate), the Qwen3-VL-style vision tower (no deepstack) and MTP layers stored under mtp.*.
 */
import type { ConfigView } from "../config-view.ts";
import type { KvLayer, ModelReading } from "../types.ts";
import { type GdnSpec, gatedDeltaNet, gdnState } from "./hybrid-parts.ts";
import { fullKv, layerTypesOf, mtpTower, textReading, textTower } from "./moe-frame.ts";
import { gatedMlp, gqaAttention, type LayerSpec, moeBlock, type Piece } from "./moe-parts.ts";
import { type TextDims, textDims } from "./qwen3-moe.ts";
import { qwenVisionTower } from "./qwen3-vl.ts";

function ffnOf(t: ConfigView, hidden: number, moe: boolean): Piece {
  if (!moe) return gatedMlp(hidden, t.int("intermediate_size"));
  return moeBlock({
    hidden,
    experts: t.int("num_experts"),
    topK: t.int("num_experts_per_tok"),
    expertInter: t.int("moe_intermediate_size"),
    sharedInter: t.optInt("shared_expert_intermediate_size", 0, { min: 0 }),
    sharedGate: true,
  });
}

function gdnSpec(t: ConfigView, hidden: number): GdnSpec {
  return {
    hidden,
    kHeads: t.int("linear_num_key_heads"),
    vHeads: t.int("linear_num_value_heads"),
    kDim: t.int("linear_key_head_dim"),
    vDim: t.int("linear_value_head_dim"),
    kernel: t.optInt("linear_conv_kernel_dim", 4),
    stateBytes: t.optStr("mamba_ssm_dtype") === "float32" ? 4 : 2,
  };
}

function hybridLayers(t: ConfigView, d: TextDims, moe: boolean) {
  const full = gqaAttention({
    hidden: d.hidden,
    heads: d.heads,
    kvHeads: d.kvHeads,
    headDim: d.headDim,
    bias: t.bool("attention_bias", false),
    qkNorm: [d.headDim, d.headDim],
    outputGate: t.bool("attn_output_gate", true),
  });
  const gdn = gdnSpec(t, d.hidden);
  const linear = gatedDeltaNet(gdn);
  const ffn = ffnOf(t, d.hidden, moe);
  const every = t.optInt("full_attention_interval", 4);
  const types = layerTypesOf(t, d.layers, (i) =>
    (i + 1) % every === 0 ? "full_attention" : "linear_attention",
  );
  const isFull = (ty: string) => ty === "full_attention";
  const layers: LayerSpec[] = types.map((ty) => ({
    mixer: isFull(ty) ? full : linear,
    mixerName: isFull(ty) ? "Attention" : "LinearAttention",
    ffn,
    norm1: d.hidden,
    norm2: d.hidden,
  }));
  const kvLayers: KvLayer[] = types.map((ty) => (isFull(ty) ? fullKv(d.kvHeads, d.headDim) : gdnState(gdn)));
  return { layers, kvLayers, mtpLayer: { mixer: full, ffn, norm1: d.hidden, norm2: d.hidden } };
}

function readQwen35Family(cfg: ConfigView, moe: boolean): ModelReading {
  const t = cfg.sub("text_config");
  const d = textDims(t);
  const { layers, kvLayers, mtpLayer } = hybridLayers(t, d, moe);
  const tied = cfg.bool("tie_word_embeddings", t.bool("tie_word_embeddings", false));
  const v = cfg.optSub("vision_config");
  const towers = [...(v ? [qwenVisionTower(v)] : []), textTower(d, layers, tied)];
  const type = cfg.str("model_type");
  const warnings = [
    v ? `${type}: vision tower sized for one 224x224 image` : `${type}: no vision_config, text only`,
  ];
  const mtp = t.optInt("mtp_num_hidden_layers", 0, { min: 0 });
  if (mtp > 0) {
    // A dedicated MTP embedding is one more vocab x hidden matrix; the head stays shared.
    const copies = t.bool("mtp_use_dedicated_embeddings", false) ? 1 : 0;
    towers.push(mtpTower({ count: mtp, layer: mtpLayer, hidden: d.hidden, vocab: d.vocab, copies }));
    warnings.push(
      `${type}: ${mtp} MTP layer(s) (mtp.*: fc 2h->h, two pre-fc norms, a full-attention layer, norm) are stored in the checkpoint; counted in parameters, not in activations`,
    );
  }
  return textReading({
    cfg,
    family: moe ? "qwen3_5_moe" : "qwen3_5",
    ...d,
    tied,
    towers,
    kvLayers,
    warnings,
  });
}

/** qwen3_5: hybrid Gated DeltaNet / gated attention decoder with SwiGLU, plus vision tower. */
export function readQwen35(cfg: ConfigView): ModelReading {
  return readQwen35Family(cfg, false);
}

/** qwen3_5_moe: the same with routed experts, a shared expert and its sigmoid gate. */
export function readQwen35Moe(cfg: ConfigView): ModelReading {
  return readQwen35Family(cfg, true);
}
