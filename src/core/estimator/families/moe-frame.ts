/**
 * The frame around the decoder layers of the MoE / hybrid / multimodal readers: embedding, final
 * norm, LM head, MTP modules, KV entries and the quantization the config declares.
 */
import type { ConfigView } from "../config-view.ts";
import type { KvLayer, ModelReading, StructureNode, TowerReading } from "../types.ts";
import { type LayerSpec, node, residualLayer } from "./moe-parts.ts";

/** Display/structure length of a decoder: its context, or 2048 when the config names none (as dense-decoder.ts). */
export function textSeq(context: number | null): number {
  return context ?? 2048;
}

export type DecoderFrame = {
  name?: string;
  seq: number;
  hidden: number;
  vocab: number;
  layers: LayerSpec[];
  tied: boolean;
  /** Final norm parameters (h for RMSNorm, 2h for LayerNorm). */
  finalNorm: number;
  normType?: string;
};

/** Input, embedding, RoPE in-line, the residual layers, final norm and LM head (output head), in order. */
export function decoderTower(f: DecoderFrame): TowerReading {
  const shape = [f.seq, f.hidden];
  const embed = f.vocab * f.hidden;
  const nodes: StructureNode[] = [
    node("Embedding", "Embedding", shape, embed, 0),
    node("RoPE", "RoPE", shape, 0, 0),
  ];
  f.layers.forEach((s, i) => {
    nodes.push(...residualLayer(i + 1, f.seq, f.hidden, s));
  });
  const nt = f.normType ?? "RMSNorm";
  const out = node(`${nt}_out`, nt, shape, f.finalNorm, f.hidden);
  const head = node("LMHead", f.tied ? "LM Head (tied)" : "LM Head", [f.seq, f.vocab], embed, 0);
  if (f.tied) head.tiedTo = "Embedding";
  out.outputHead = true;
  head.outputHead = true;
  nodes.push(out, head);
  return { name: f.name ?? "text", role: "decoder", seqLen: f.seq, nodes };
}

/**
 * DeepSeek-style multi-token-prediction modules stored in the checkpoint: per module one decoder
 * layer plus enorm, hnorm, eh_proj (2h -> h), a shared-head norm and, where the checkpoint stores
 * them, its own copies of the embedding and head. Counted in parameters; no activations (not used
 * when fine-tuning or serving plainly).
 */
export function mtpTower(o: {
  count: number;
  layer: LayerSpec;
  hidden: number;
  vocab: number;
  storesEmbedAndHead: boolean;
}): TowerReading {
  const nodes: StructureNode[] = [];
  const shape = [1, o.hidden];
  for (let i = 1; i <= o.count; i++) {
    const l = o.layer;
    const layerParams = l.norm1 + l.norm2 + l.mixer.params + l.ffn.params;
    const proj = 2 * o.hidden * o.hidden + 3 * o.hidden;
    const copies = o.storesEmbedAndHead ? 2 * o.vocab * o.hidden : 0;
    const n = node(`MTP_${i}`, "MTP module", shape, layerParams + proj + copies, 0);
    n.outputHead = true;
    nodes.push(n);
  }
  return { name: "mtp", role: "head", seqLen: 1, nodes };
}

/** KV entry of a standard attention layer (k and v, bf16). */
export function fullKv(kvHeads: number, headDim: number, window?: number): KvLayer {
  const bytesPerToken = 2 * kvHeads * headDim * 2;
  return window ? { kind: "sliding", bytesPerToken, window } : { kind: "full", bytesPerToken };
}

/** The quantization a (sub-)config declares, with real bytes per stored weight. */
export function readQuantization(cfg: ConfigView): ModelReading["quantization"] | undefined {
  const q = cfg.optSub("quantization_config");
  if (!q) return undefined;
  const method = q.optStr("quant_method") ?? "unknown";
  if (method === "fp8") {
    // 1 byte per weight plus one fp32 scale per 128x128 block.
    return { method: "fp8", bytesPerWeight: 1 + 4 / (128 * 128), appliesTo: "linears" };
  }
  if (method === "mxfp4") {
    // 4-bit values plus one 8-bit shared exponent per 32 weights, on the routed experts.
    return { method: "mxfp4", bytesPerWeight: 0.5 + 1 / 32, appliesTo: "experts" };
  }
  if (method === "compressed-tensors") {
    const group = q.optSub("config_groups");
    const g0 = group?.optSub("group_0")?.optSub("weights");
    const bits = g0?.optInt("num_bits", 4) ?? 4;
    const size = g0?.optInt("group_size", 32) ?? 32;
    // Packed ints plus a bf16 scale per group; the ignore lists of these checkpoints keep
    // attention, shared experts and dense MLPs in bf16, so it applies to the experts.
    return { method: `int${bits}-group${size}`, bytesPerWeight: bits / 8 + 2 / size, appliesTo: "experts" };
  }
  return { method, bytesPerWeight: 2, appliesTo: "linears" };
}

export type ReadingParts = Omit<ModelReading, "warnings" | "quantization"> & {
  warnings?: string[];
  quantization?: ModelReading["quantization"];
};

/** Assemble a ModelReading, dropping an undefined quantization. */
export function reading(p: ReadingParts): ModelReading {
  const r: ModelReading = { ...p, warnings: p.warnings ?? [] };
  if (!p.quantization) delete r.quantization;
  return r;
}
