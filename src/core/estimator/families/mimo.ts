import type { ConfigView } from "../config-view.ts";
import type { ModelReading, StructureNode } from "../types.ts";
import { attention, kvFull, linear, norm, type Place, preNormLayer, swiglu } from "./blocks.ts";
import { decoderDims, denseDecoderNodes, layerKv } from "./dense-decoder.ts";

/**
 * MiMo (XiaomiMiMo's modeling_mimo.py): a Qwen2 decoder plus num_nextn_predict_layers multi-token-prediction
 * layers, each token_layernorm + hidden_layernorm + input_proj (2h -> h, no bias) + a Qwen2 layer + final_layernorm.
 */
export function readMimo(cfg: ConfigView): ModelReading {
  const d = decoderDims(cfg);
  const mtp = cfg.optInt("num_nextn_predict_layers", 0, { min: 0, max: 100 });
  const tied = cfg.bool("tie_word_embeddings", false);
  const o = {
    family: "mimo",
    qkvBias: true,
    oBias: false,
    qkNorm: false,
    mlpBias: false,
    tieDefault: false,
    slidingByDefault: false,
  };
  const p: Place = { seq: d.context ?? 2048 };
  const { body, head } = denseDecoderNodes(p, d, o, tied);
  const extra: StructureNode[] = [];
  const spec = {
    hidden: d.hidden,
    heads: d.heads,
    kvHeads: d.kvHeads,
    headDim: d.headDim,
    qkvBias: true,
    oBias: false,
  };
  for (let k = 1; k <= mtp; k++) {
    const i = d.layers + k;
    const q: Place = { ...p, layer: i, prefix: `MTP_${k}` };
    extra.push(
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
    );
  }
  return {
    family: "mimo",
    modelType: "mimo",
    towers: [{ name: "text", role: "decoder", seqLen: p.seq, nodes: [...body, ...extra, ...head] }],
    contextLength: d.context,
    lmHead: { vocab: d.vocab, hidden: d.hidden },
    tiedEmbedding: tied,
    embeddingParams: d.vocab * d.hidden,
    kvLayers: [...layerKv(cfg, d, false), ...Array.from({ length: mtp }, () => kvFull(d.kvHeads, d.headDim))],
    warnings:
      mtp > 0
        ? [`${mtp} multi-token-prediction layer(s) counted (stored in the checkpoint, used in training)`]
        : [],
  };
}
