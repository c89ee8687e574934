/**
 * wav2vec2 and HuBERT (modeling_wav2vec2.py, modeling_hubert.py; defaults from configuration_wav2vec2.py,
 * configuration_hubert.py). Wav2Vec2Model / HubertModel: the conv feature encoder, feature projection
 * (wav2vec2 always has its LayerNorm; HuBERT only with feat_proj_layer_norm), masked_spec_embed (hidden scalars,
 * when mask_time_prob or mask_feature_prob > 0), the encoder (positional conv, LayerNorm, layers of attention
 * q/k/v/out with bias and a feed-forward intermediate/output_dense with bias; post-norm, or pre-norm with a final
 * LayerNorm for do_stable_layer_norm) and, with add_adapter, Wav2Vec2Adapter. Heads: ForCTC (lm_head to
 * vocab_size, bias), ForSequenceClassification (projector + classifier, layer_weights with
 * use_weighted_layer_sum), Wav2Vec2ForPreTraining (Gumbel quantizer codevectors + weight_proj, project_hid,
 * project_q). The audio tower is sized for 30 s of 16 kHz audio; no KV cache.
 */
import { type ConfigView, divisible } from "../config-view.ts";
import type { ModelReading, StructureNode } from "../types.ts";
import {
  add,
  append,
  asHead,
  at,
  attention,
  geluMlp,
  linear,
  node,
  norm,
  type Place,
  place,
} from "./blocks.ts";
import { numLabels } from "./encoder.ts";
import {
  adapterNodes,
  convLengths,
  convStack,
  featureEncoderNodes,
  featureProjection,
  positionalConv,
  SAMPLE_RATE,
} from "./wav2vec2-parts.ts";

/** Seconds of audio the tower is sized for (Whisper's window; long utterances in ASR fine-tuning sets). */
const AUDIO_SECONDS = 30;

/** `adapter`: Wav2Vec2AttnAdapterLayer width (adapter_attn_dim, MMS), 0 for none; only stable-layer-norm layers hold it. */
type Dims = { h: number; heads: number; inter: number; layers: number; stable: boolean; adapter: number };

function layerNodes(p: Place, i: number, d: Dims): StructureNode[] {
  const q = at(p, i);
  const spec = {
    hidden: d.h,
    heads: d.heads,
    kvHeads: d.heads,
    headDim: d.h / d.heads,
    qkvBias: true,
    oBias: true,
  };
  const attn = attention(q, `Attention_${i}`, spec);
  const ln1 = norm(q, `LayerNorm_${i}_1`, "LayerNorm", d.h);
  const ln2 = norm(q, `LayerNorm_${i}_2`, "LayerNorm", d.h);
  const ffn = geluMlp(q, `FFN_${i}`, d.h, d.inter);
  const a1 = add(q, `Add_${i}_attn`, d.h);
  const a2 = add(q, `Add_${i}_ffn`, d.h);
  if (!d.stable) return [attn, a1, ln1, ffn, a2, ln2];
  if (d.adapter === 0) return [ln1, attn, a1, ln2, ffn, a2];
  // LayerNorm, linear_1 (hidden -> adapter_attn_dim), ReLU, linear_2 back, added to the layer output.
  const adapter = node(
    q,
    `AttnAdapter_${i}`,
    "Adapter (LayerNorm + 2 linears)",
    d.h,
    2 * d.h + 2 * d.h * d.adapter + d.adapter + d.h,
    2 * (d.h + 2 * d.adapter),
    [
      { in: d.h, out: d.adapter, count: 1 },
      { in: d.adapter, out: d.h, count: 1 },
    ],
  );
  return [ln1, attn, a1, ln2, ffn, a2, adapter, add(q, `Add_${i}_adapter`, d.h)];
}

function headNodes(p: Place, cfg: ConfigView, d: Dims, out: number, arch: string): StructureNode[] {
  if (arch.endsWith("ForCTC"))
    return [linear(p, "LMHead", "CTC head", out, cfg.int("vocab_size"), true, false)];
  if (arch.endsWith("ForSequenceClassification")) {
    const proj = cfg.optInt("classifier_proj_size", 256);
    const nodes = [
      linear(p, "Projector", "Linear", d.h, proj, true, false),
      linear(p, "Classifier", "Classifier", proj, numLabels(cfg), true, false),
    ];
    if (cfg.bool("use_weighted_layer_sum", false))
      nodes.unshift(node(p, "LayerWeights", "Layer weights", 1, d.layers + 1, 0));
    return nodes;
  }
  if (arch.endsWith("ForPreTraining")) {
    const groups = cfg.optInt("num_codevector_groups", 2);
    const perGroup = cfg.optInt("num_codevectors_per_group", 320);
    const codeDim = cfg.optInt("codevector_dim", 256);
    const projDim = cfg.optInt("proj_codevector_dim", 256);
    const last = convStack(cfg).dims.at(-1)!;
    const quantizer = groups * perGroup * (codeDim / groups) + last * groups * perGroup + groups * perGroup;
    return [
      node(p, "Quantizer", "Gumbel vector quantizer", codeDim, quantizer, 0),
      linear(p, "ProjectHid", "Linear", d.h, projDim, true, false),
      linear(p, "ProjectQ", "Linear", codeDim, projDim, true, false),
    ];
  }
  return [];
}

function readAudioEncoder(cfg: ConfigView, family: "wav2vec2" | "hubert"): ModelReading {
  const h = cfg.int("hidden_size");
  const heads = cfg.int("num_attention_heads", { max: 100_000 });
  divisible(cfg, "hidden_size", h, heads, "num_attention_heads");
  const d: Dims = {
    h,
    heads,
    inter: cfg.int("intermediate_size"),
    layers: cfg.int("num_hidden_layers", { max: 10_000 }),
    stable: cfg.bool("do_stable_layer_norm", false),
    adapter: family === "wav2vec2" ? cfg.optInt("adapter_attn_dim", 0, { min: 0 }) : 0,
  };
  const stack = convStack(cfg);
  const lengths = convLengths(stack, AUDIO_SECONDS * SAMPLE_RATE);
  const frames = lengths.at(-1)!;
  const p = place(frames, "audio");
  const nodes = featureEncoderNodes(p, cfg, stack, lengths);
  nodes.push(
    featureProjection(
      p,
      stack.dims.at(-1)!,
      h,
      family === "wav2vec2" || cfg.bool("feat_proj_layer_norm", true),
    ),
  );
  if (cfg.optNum("mask_time_prob", 0.05) > 0 || cfg.optNum("mask_feature_prob", 0) > 0)
    nodes.push(node(p, "MaskedSpecEmbed", "Mask embedding", h, h, 0));
  nodes.push(positionalConv(p, cfg, h));
  if (!d.stable) nodes.push(norm(p, "LayerNorm_enc", "LayerNorm", h));
  for (let i = 1; i <= d.layers; i++) append(nodes, layerNodes(p, i, d));
  if (d.stable) nodes.push(norm(p, "LayerNorm_enc", "LayerNorm", h));
  const adapter = adapterNodes(p, cfg, h);
  append(nodes, adapter.nodes);
  const arch =
    (cfg.optArray("architectures")?.find((a) => typeof a === "string") as string | undefined) ??
    `${family === "hubert" ? "Hubert" : "Wav2Vec2"}Model`;
  append(nodes, asHead(headNodes(p, cfg, d, adapter.out, arch)));
  const r: ModelReading = {
    family,
    modelType: family,
    towers: [{ name: "audio", role: "audio", seqLen: frames, nodes, fixedSeq: true }],
    contextLength: frames,
    lmHead: null,
    tiedEmbedding: false,
    embeddingParams: 0,
    kvLayers: [],
    warnings: [
      `audio tower sized for ${AUDIO_SECONDS} s of ${SAMPLE_RATE / 1000} kHz audio (${frames} frames)`,
    ],
  };
  if (cfg.bool("conv_pos_batch_norm", false)) {
    const stat = (suffix: string, scalarsEach: number, dtype: string) => ({
      suffix,
      count: 1,
      scalarsEach,
      dtype,
    });
    r.storedBuffers = [
      stat("pos_conv_embed.batch_norm.running_mean", h, "F32"),
      stat("pos_conv_embed.batch_norm.running_var", h, "F32"),
      stat("pos_conv_embed.batch_norm.num_batches_tracked", 1, "I64"),
    ];
  }
  return r;
}

export function readWav2Vec2(cfg: ConfigView): ModelReading {
  return readAudioEncoder(cfg, "wav2vec2");
}

export function readHubert(cfg: ConfigView): ModelReading {
  return readAudioEncoder(cfg, "hubert");
}
