/**
 * qwen3_next (transformers modeling_qwen3_next.py / configuration_qwen3_next.py; Qwen3-Next-80B-A3B,
 * Qwen3-Coder-Next): per `layer_types` (else every `full_attention_interval`-th layer full) either a
 * Qwen3NextGatedDeltaNet (fused in_proj_qkvz and in_proj_ba, depthwise conv1d without bias, dt_bias,
 * A_log, gated RMSNorm over the value head dim, out_proj) or a Qwen3NextAttention (q_proj emits q and
 * an output gate, per-head q/k RMSNorm). Feed-forward: Qwen3NextSparseMoeBlock (= qwen2_moe's: router,
 * routed SwiGLU experts, shared expert with a sigmoid gate) on sparse layers, else a dense MLP.
 * Checkpoints may store multi-token-prediction weights (mtp.*: fc 2h -> h, two pre-fc norms, one
 * full-attention MoE layer, norm) that the model ignores on load; they are counted when the config
 * declares them (`mtp_num_hidden_layers`), and named in a warning otherwise.
 */
import type { ConfigView } from "../config-view.ts";
import type { KvLayer, ModelReading, TowerReading } from "../types.ts";
import { type GdnSpec, gatedDeltaNetFused, gdnState } from "./hybrid-parts.ts";
import { fullKv, layerTypesOf, mtpTower, readQuantization, textReading, textTower } from "./moe-frame.ts";
import { gatedMlp, gqaAttention, type LayerSpec, moeBlock, type Piece } from "./moe-parts.ts";
import { qwen3MoeSparseLayers, type TextDims, textDims } from "./qwen3-moe.ts";

function gdnSpec(cfg: ConfigView, hidden: number): GdnSpec {
  return {
    hidden,
    kHeads: cfg.int("linear_num_key_heads"),
    vHeads: cfg.int("linear_num_value_heads"),
    kDim: cfg.int("linear_key_head_dim"),
    vDim: cfg.int("linear_value_head_dim"),
    kernel: cfg.optInt("linear_conv_kernel_dim", 4),
    // modeling_qwen3_next.py runs the delta rule in float32 and caches the state it returns as is.
    stateBytes: (cfg.optStr("mamba_ssm_dtype") ?? "float32") === "float32" ? 4 : 2,
  };
}

function ffnPieces(cfg: ConfigView, hidden: number, layers: number) {
  const sparse = qwen3MoeSparseLayers(cfg, layers);
  const moe = sparse.some(Boolean)
    ? moeBlock({
        hidden,
        experts: cfg.int("num_experts"),
        topK: cfg.int("num_experts_per_tok"),
        expertInter: cfg.int("moe_intermediate_size"),
        sharedInter: cfg.int("shared_expert_intermediate_size", { min: 0 }),
        sharedGate: true,
      })
    : null;
  const dense = sparse.every(Boolean) ? null : gatedMlp(hidden, cfg.int("intermediate_size"));
  return sparse.map((s) => (s ? moe : dense) as Piece);
}

function fullAttention(cfg: ConfigView, d: TextDims): Piece {
  return gqaAttention({
    hidden: d.hidden,
    heads: d.heads,
    kvHeads: d.kvHeads,
    headDim: d.headDim,
    bias: cfg.bool("attention_bias", false),
    qkNorm: [d.headDim, d.headDim],
    outputGate: true,
  });
}

/** One MTP module as Qwen3-Next checkpoints store it (mtp.*: fc, pre-fc norms, a full-attention layer, norm). */
function mtpModules(count: number, d: TextDims, full: Piece, ffn: Piece): TowerReading {
  const layer: LayerSpec = { mixer: full, ffn, norm1: d.hidden, norm2: d.hidden };
  return mtpTower({ count, layer, hidden: d.hidden, vocab: d.vocab, copies: 0 });
}

/**
 * Parameters of one MTP layer of this config: what a Qwen3-Next checkpoint stores under mtp.* when its
 * config does not declare `mtp_num_hidden_layers` (Qwen3-Next-80B-A3B does; Qwen3-Coder-Next does not).
 */
export function qwen3NextMtpLayerParams(cfg: ConfigView): number {
  const d = textDims(cfg);
  const ffns = ffnPieces(cfg, d.hidden, d.layers);
  return mtpModules(1, d, fullAttention(cfg, d), ffns[ffns.length - 1]!).nodes[0]!.params;
}

/** qwen3_next: hybrid Gated DeltaNet / gated attention decoder with a high-sparsity MoE. */
export function readQwen3Next(cfg: ConfigView): ModelReading {
  const d = textDims(cfg);
  const full = fullAttention(cfg, d);
  const gdn = gdnSpec(cfg, d.hidden);
  const linear = gatedDeltaNetFused(gdn);
  const every = cfg.optInt("full_attention_interval", 4);
  const types = layerTypesOf(cfg, d.layers, (i) =>
    (i + 1) % every === 0 ? "full_attention" : "linear_attention",
  );
  const ffns = ffnPieces(cfg, d.hidden, d.layers);
  const layers: LayerSpec[] = types.map((t, i) => ({
    mixer: t === "full_attention" ? full : linear,
    mixerName: t === "full_attention" ? "Attention" : "LinearAttention",
    ffn: ffns[i]!,
    norm1: d.hidden,
    norm2: d.hidden,
  }));
  const kvLayers: KvLayer[] = types.map((t) =>
    t === "full_attention" ? fullKv(d.kvHeads, d.headDim) : gdnState(gdn),
  );
  const tied = cfg.bool("tie_word_embeddings", false);
  const towers: TowerReading[] = [textTower(d, layers, tied)];
  const mtp = cfg.optInt("mtp_num_hidden_layers", cfg.optInt("num_nextn_predict_layers", 0, { min: 0 }), {
    min: 0,
  });
  const last = ffns[ffns.length - 1]!;
  const warnings: string[] = [];
  let undeclaredMtp = 0;
  if (mtp > 0) {
    towers.push(mtpModules(mtp, d, full, last));
    warnings.push(
      `qwen3_next: ${mtp} MTP layer(s) (mtp.*) counted in parameters, not in activations or KV cache`,
    );
  } else {
    undeclaredMtp = mtpModules(1, d, full, last).nodes[0]!.params;
    warnings.push(
      `qwen3_next: the config declares no MTP layer; Qwen3-Next-80B-A3B checkpoints store one (mtp.*, ${undeclaredMtp} parameters) that is not counted here`,
    );
  }
  const reading = textReading({
    cfg,
    family: "qwen3_next",
    hidden: d.hidden,
    vocab: d.vocab,
    context: d.context,
    tied,
    towers,
    kvLayers,
    quantization: readQuantization(cfg),
    warnings,
  });
  if (mtp === 0) reading.undeclaredWeights = [{ name: "mtp.* (one MTP layer)", scalars: undeclaredMtp }];
  return reading;
}
