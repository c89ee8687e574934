/**
 * Parts shared by the gemma2/3, phi3, falcon, olmo2/3, starcoder2, cohere/cohere2 and internlm readers:
 * configuration-class defaults that are named in a warning (Hub configs of these families routinely
 * leave keys to their class defaults), per-layer KV entries from layer kinds, and the layer shapes the
 * pre-norm residual layer of moe-parts.ts does not cover: one norm feeding attention and MLP in
 * parallel (Falcon, Cohere), and norms after each sublayer (OLMo2/3).
 */
import type { ConfigView, IntBounds } from "../config-view.ts";
import type { KvLayer, ModelReading, StructureNode, TowerReading } from "../types.ts";
import { append } from "./blocks.ts";
import { fullKv, outputHead } from "./moe-frame.ts";
import { type LayerSpec, node, type Piece, pieceNode, pushResidualLayer } from "./moe-parts.ts";

/** The keys a reader took from its configuration class's defaults, as `path=value`. */
export type DefaultsUsed = string[];

/** An integer key, or the configuration class's default for it (recorded in `used`). */
export function intOr(
  cfg: ConfigView,
  key: string,
  fallback: number,
  used: DefaultsUsed,
  bounds?: IntBounds,
): number {
  if (cfg.has(key)) return cfg.int(key, bounds);
  used.push(`${cfg.keyName(key)}=${fallback}`);
  return fallback;
}

/** One warning naming every defaulted key, or none. */
export function defaultsWarning(className: string, used: DefaultsUsed): string[] {
  return used.length > 0 ? [`absent keys read at ${className} defaults: ${used.join(", ")}`] : [];
}

/** Per-layer KV entries: "sliding_attention" layers keep at most `window` tokens, the others all. */
export function kvByKind(
  kinds: string[],
  kvHeads: number,
  headDim: number,
  window: number | null,
): KvLayer[] {
  const out: KvLayer[] = [];
  for (const k of kinds) {
    out.push(fullKv(kvHeads, headDim, k === "sliding_attention" && window ? window : undefined));
  }
  return out;
}

type ParallelSpec = { norm: number; normType: string; mixer: Piece; ffn: Piece };

/** One norm feeding attention and the MLP in parallel, both outputs added to the residual: 4 nodes. */
function parallelLayer(l: number, seq: number, hidden: number, s: ParallelSpec): StructureNode[] {
  const shape = [seq, hidden];
  return [
    node(`${s.normType}_${l}`, s.normType, shape, s.norm, hidden, l),
    pieceNode(`Attention_${l}`, s.mixer, shape, l),
    pieceNode(`FFN_${l}`, s.ffn, shape, l),
    node(`Add_${l}`, "Add", shape, 0, hidden, l),
  ];
}

/** Norm after each sublayer, before its residual add (OLMo2/3): attention, norm, add, MLP, norm, add. */
function postNormLayer(l: number, seq: number, hidden: number, s: LayerSpec): StructureNode[] {
  const shape = [seq, hidden];
  return [
    pieceNode(`Attention_${l}`, s.mixer, shape, l),
    node(`RMSNorm_${l}_attn`, "RMSNorm (post)", shape, s.norm1, hidden, l),
    node(`Add_${l}_attn`, "Add", shape, 0, hidden, l),
    pieceNode(`FFN_${l}`, s.ffn, shape, l),
    node(`RMSNorm_${l}_ffn`, "RMSNorm (post)", shape, s.norm2, hidden, l),
    node(`Add_${l}_ffn`, "Add", shape, 0, hidden, l),
  ];
}

export type LayerShape = "pre" | "parallel" | "post";

type TextFrame = {
  seq: number;
  hidden: number;
  vocab: number;
  layers: LayerSpec[];
  shape: LayerShape;
  tied: boolean;
  /** Final norm parameters (h for RMSNorm, 2h for LayerNorm with bias). */
  finalNorm: number;
  /** The final norm's kind, and the layers' unless their spec names one. */
  normType: string;
  /** Rotary positions (false for ALiBi). */
  rope: boolean;
};

/** Embedding, RoPE in-line, the layers in their shape, final norm and LM head (tied or not). */
export function textFrameTower(f: TextFrame): TowerReading {
  const shape = [f.seq, f.hidden];
  const nodes: StructureNode[] = [node("Embedding", "Embedding", shape, f.vocab * f.hidden, 0)];
  if (f.rope) nodes.push(node("RoPE", "RoPE", shape, 0, 0));
  for (let i = 0; i < f.layers.length; i++) {
    const s = f.layers[i]!;
    const l = i + 1;
    if (f.shape === "parallel") {
      const normType = s.normType ?? f.normType;
      append(
        nodes,
        parallelLayer(l, f.seq, f.hidden, { norm: s.norm1, normType, mixer: s.mixer, ffn: s.ffn }),
      );
    } else if (f.shape === "post") {
      append(nodes, postNormLayer(l, f.seq, f.hidden, s));
    } else {
      pushResidualLayer(nodes, l, shape, f.hidden, s);
    }
  }
  append(
    nodes,
    outputHead({
      seq: f.seq,
      hidden: f.hidden,
      vocab: f.vocab,
      tied: f.tied,
      finalNorm: f.finalNorm,
      normType: f.normType,
    }),
  );
  return { name: "text", role: "decoder", seqLen: f.seq, nodes };
}

/** The same layer `n` times (layers without per-layer differences share one spec object). */
export function repeatLayer(n: number, s: LayerSpec): LayerSpec[] {
  const out: LayerSpec[] = [];
  for (let i = 0; i < n; i++) out.push(s);
  return out;
}

type TextModel = {
  cfg: ConfigView;
  family: string;
  hidden: number;
  vocab: number;
  context: number | null;
  tied: boolean;
  towers: TowerReading[];
  kvLayers: KvLayer[];
  warnings: string[];
};

/** The reading of a model with an LM head; model_type from the config, else the family (read by architectures). */
export function textModel(o: TextModel): ModelReading {
  return {
    family: o.family,
    modelType: o.cfg.optStr("model_type") ?? o.family,
    towers: o.towers,
    contextLength: o.context,
    lmHead: { vocab: o.vocab, hidden: o.hidden },
    tiedEmbedding: o.tied,
    embeddingParams: o.vocab * o.hidden,
    kvLayers: o.kvLayers,
    warnings: o.warnings,
  };
}
