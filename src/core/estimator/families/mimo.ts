import type { ConfigView } from "../config-view.ts";
import type { ModelReading, StructureNode } from "../types.ts";
import {
  append,
  attention,
  decoderReading,
  kvFull,
  linear,
  norm,
  type Place,
  place,
  preNormLayer,
  swiglu,
} from "./blocks.ts";
import {
  type DecoderDims,
  type DenseOptions,
  decoderDims,
  denseDecoderNodes,
  layerKv,
} from "./dense-decoder.ts";

const QWEN2_LIKE: DenseOptions = {
  family: "mimo",
  qkvBias: true,
  oBias: false,
  qkNorm: false,
  mlpBias: false,
  tieDefault: false,
  slidingByDefault: false,
};

/** MTP layer k: token and hidden norms, input_proj (2h -> h), a Qwen2 layer, final norm. */
function mtpLayer(p: Place, d: DecoderDims, k: number): StructureNode[] {
  const i = d.layers + k;
  const q: Place = { seq: p.seq, prefix: `MTP_${k}`, layer: i };
  const spec = {
    hidden: d.hidden,
    heads: d.heads,
    kvHeads: d.kvHeads,
    headDim: d.headDim,
    qkvBias: true,
    oBias: false,
  };
  return [
    norm(q, "TokenNorm", "RMSNorm", d.hidden),
    norm(q, "HiddenNorm", "RMSNorm", d.hidden),
    linear(q, "InputProj", "Linear", 2 * d.hidden, d.hidden, false),
    ...preNormLayer(
      q,
      i,
      "RMSNorm",
      d.hidden,
      attention(q, `Attention_${i}`, spec),
      swiglu(q, `FFN_${i}`, d.hidden, d.inter),
    ),
    norm(q, "FinalNorm", "RMSNorm", d.hidden),
  ];
}

/**
 * MiMo (XiaomiMiMo's modeling_mimo.py): a Qwen2 decoder plus num_nextn_predict_layers multi-token-prediction
 * layers, each token_layernorm + hidden_layernorm + input_proj (2h -> h, no bias) + a Qwen2 layer + final_layernorm.
 */
export function readMimo(cfg: ConfigView): ModelReading {
  const d = decoderDims(cfg);
  const mtp = cfg.optInt("num_nextn_predict_layers", 0, { min: 0, max: 100 });
  const tied = cfg.bool("tie_word_embeddings", false);
  const p: Place = place(d.context ?? 2048);
  const { body, head } = denseDecoderNodes(p, d, QWEN2_LIKE, tied);
  const extra: StructureNode[] = [];
  for (let k = 1; k <= mtp; k++) append(extra, mtpLayer(p, d, k));
  const warnings =
    mtp > 0
      ? [`${mtp} multi-token-prediction layer(s) counted (stored in the checkpoint, used in training)`]
      : [];
  return decoderReading({
    family: "mimo",
    nodes: [...body, ...extra, ...head],
    context: d.context,
    vocab: d.vocab,
    hidden: d.hidden,
    tied,
    kvLayers: [...layerKv(cfg, d, false), ...Array.from({ length: mtp }, () => kvFull(d.kvHeads, d.headDim))],
    warnings,
  });
}
