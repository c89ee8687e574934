/**
 * The frame around the decoder layers of the MoE / hybrid / multimodal readers: embedding, final
 * norm, LM head, MTP modules, KV entries and the quantization the config declares.
 */
import type { ConfigView } from "../config-view.ts";
import type { KvLayer, ModelReading, StructureNode, TowerReading } from "../types.ts";
import { append } from "./blocks.ts";
import { type LayerSpec, node, pushResidualLayer } from "./moe-parts.ts";

/** Display/structure length of a decoder: its context, or 2048 when the config names none (as dense-decoder.ts). */
export function textSeq(context: number | null): number {
  return context ?? 2048;
}

type DecoderFrame = {
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
  for (let i = 0; i < f.layers.length; i++) pushResidualLayer(nodes, i + 1, shape, f.hidden, f.layers[i]!);
  append(nodes, outputHead(f));
  return { name: f.name ?? "text", role: "decoder", seqLen: f.seq, nodes };
}

/** Final norm and LM head (tied to "Embedding" or not), both marked as the output head. */
export function outputHead(f: Omit<DecoderFrame, "layers">): StructureNode[] {
  const nt = f.normType ?? "RMSNorm";
  const out = node(`${nt}_out`, nt, [f.seq, f.hidden], f.finalNorm, f.hidden);
  const head = node("LMHead", f.tied ? "LM Head (tied)" : "LM Head", [f.seq, f.vocab], f.vocab * f.hidden, 0);
  if (f.tied) head.tiedTo = "Embedding";
  out.outputHead = true;
  head.outputHead = true;
  return [out, head];
}

/** The text decoder tower of a reader: display length = context, RMSNorm final norm. */
export function textTower(
  d: { hidden: number; vocab: number; context: number | null },
  layers: LayerSpec[],
  tied: boolean,
): TowerReading {
  return decoderTower({
    seq: textSeq(d.context),
    hidden: d.hidden,
    vocab: d.vocab,
    layers,
    tied,
    finalNorm: d.hidden,
  });
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
  /** vocab x hidden matrices each module stores (DeepSeek: own embedding + head = 2; GLM: 0). */
  copies: number;
}): TowerReading {
  const nodes: StructureNode[] = [];
  const shape = [1, o.hidden];
  for (let i = 1; i <= o.count; i++) {
    const l = o.layer;
    const layerParams = l.norm1 + l.norm2 + l.mixer.params + l.ffn.params;
    const proj = 2 * o.hidden * o.hidden + 3 * o.hidden;
    const copies = o.copies * o.vocab * o.hidden;
    const n = node(`MTP_${i}`, "MTP module", shape, layerParams + proj + copies, 0);
    n.outputHead = true;
    // The module's decoder layer is stored (and quantized) like the others; eh_proj stays in bf16.
    n.storedLinears = l.mixer.linears.concat(l.ffn.linears);
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
    const g0 = q.optSub("config_groups")?.optSub("group_0")?.optSub("weights");
    const bits = g0?.optInt("num_bits", 4) ?? 4;
    const size = g0?.optInt("group_size", 32) ?? 32;
    // Packed ints plus a bf16 scale per group; the ignore lists of these checkpoints keep
    // attention, shared experts and dense MLPs in bf16, so it applies to the experts.
    return { method: `int${bits}-group${size}`, bytesPerWeight: bits / 8 + 2 / size, appliesTo: "experts" };
  }
  if (q.has("bits")) {
    // GPTQ / AWQ: packed ints plus an fp16 scale (and packed zero) per group of linear weights.
    const bits = q.int("bits", { max: 16 });
    const size = q.optInt("group_size", 128, { min: -1 });
    return {
      method,
      bytesPerWeight: bits / 8 + (size > 0 ? (2 + bits / 8) / size : 0),
      appliesTo: "linears",
    };
  }
  if (q.bool("load_in_4bit", false))
    return { method: "bnb-4bit", bytesPerWeight: 0.5 + 4 / 64, appliesTo: "linears" };
  if (q.bool("load_in_8bit", false)) return { method: "bnb-8bit", bytesPerWeight: 1, appliesTo: "linears" };
  return undefined;
}

/** Per-layer kinds from layer_types (validated against the layer count), else the fallback rule. */
export function layerTypesOf(cfg: ConfigView, layers: number, fallback: (i: number) => string): string[] {
  const types = cfg.optArray("layer_types");
  if (!types) return Array.from({ length: layers }, (_, i) => fallback(i));
  if (types.length !== layers) cfg.fail("layer_types", `has ${types.length} entries for ${layers} layers`);
  if (types.some((t) => typeof t !== "string")) cfg.fail("layer_types", "expected strings");
  return types as string[];
}

type TextReading = {
  /** The root config (model_type is read from it). */
  cfg: ConfigView;
  family: string;
  hidden: number;
  vocab: number;
  context: number | null;
  tied: boolean;
  towers: TowerReading[];
  kvLayers: KvLayer[];
  quantization?: ModelReading["quantization"] | undefined;
  warnings?: string[];
};

/** A reading of a model with an LM head over `vocab` (quantization dropped when undefined). */
export function textReading(o: TextReading): ModelReading {
  const r: ModelReading = {
    family: o.family,
    modelType: o.cfg.str("model_type"),
    towers: o.towers,
    contextLength: o.context,
    lmHead: { vocab: o.vocab, hidden: o.hidden },
    tiedEmbedding: o.tied,
    embeddingParams: o.vocab * o.hidden,
    kvLayers: o.kvLayers,
    warnings: o.warnings ?? [],
  };
  if (o.quantization) r.quantization = o.quantization;
  return r;
}
