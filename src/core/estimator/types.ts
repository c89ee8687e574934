/**
 * The estimator's contracts. Family readers (families/*.ts) turn a config into a ModelReading;
 * the generic parts (params, checkpoint, memory, fit, markdown) work only on ModelReading.
 * All sizes are counts of scalars or bytes; GB in display means 1e9 bytes.
 */
import type { ConfigView } from "./config-view.ts";

/** One node of the structure graph: connected in order, each consuming the previous node's output. */
export type StructureNode = {
  name: string;
  type: string;
  /** Output shape, batch excluded (e.g. [seq, hidden]). */
  shape: number[];
  params: number;
  /** Activation bytes stored per token of this node's tower for the backward pass (bf16 autocast). */
  actBytesPerToken: number;
  /** Decoder/encoder layer index (1-based) when the node belongs to a repeated block; used for layer splits. */
  layer?: number;
  /** Linear layers inside the node that LoRA adapts: `count` linears of in x out (heads excluded). */
  linears?: Linear[];
  /** True for the node whose parameters are shared with the input embedding (a tied LM head). */
  tiedTo?: string;
  /** Added: activation bytes per sample independent of this tower's tokens (cross-attention k/v over encoder positions). */
  actBytesPerSample?: number;
  /**
   * Added: part of the output head (final norm, LM head, pooler, classifier). Placed on the last card in a split
   * but not counted in "(a + b layers)", like the seed pages' Output row.
   */
  outputHead?: boolean;
  /**
   * Added: a routed-MoE node's experts (set by moe-parts' moeBlock, so every reader built on it has them).
   * Active parameters and expert-only quantization (mxfp4, int4 experts) read this.
   */
  moe?: MoeFacts;
  /**
   * Added: linears a checkpoint stores (and a quantized one quantizes) that LoRA does not adapt, e.g. the
   * decoder layer inside a DeepSeek MTP module. Counted in `params` already.
   */
  storedLinears?: Linear[];
};

/**
 * The routed experts of a MoE node: `experts` of `expertParams` each (weights and per-expert biases), `topK` used
 * per token; `expertWeights` scalars in their weight matrices, stored as `expertMatrices` tensors' worth of
 * matrices (gate, up, down per expert; gate_up and down when the checkpoint fuses them).
 */
export type MoeFacts = {
  experts: number;
  topK: number;
  expertParams: number;
  expertWeights: number;
  expertMatrices: number;
};

/**
 * A linear of in x out weights, `count` times. `unquantized`: quantized checkpoints keep it at the model's dtype
 * (routers, the DSA indexer's weights_proj), so it is neither packed nor scaled.
 */
export type Linear = { in: number; out: number; count: number; unquantized?: boolean };

/** What one attention layer keeps in its KV cache per token of context. */
export type KvLayer = {
  kind: "full" | "sliding" | "mla" | "linear_state" | "cross";
  /** Bytes per token per sequence (bf16), before any window cap. For linear_state: 0 (constant state). */
  bytesPerToken: number;
  /** Sliding window size in tokens (kind "sliding"). */
  window?: number;
  /** Fixed bytes per sequence (linear-attention / Mamba state, cross-attention cache over encoder positions). */
  fixedBytes?: number;
};

export type TowerRole = "decoder" | "encoder" | "vision" | "audio" | "projector" | "head";

export type TowerReading = {
  name: string;
  role: TowerRole;
  /** Tokens (or positions/patches/frames) this tower runs on per sample when training/serving. */
  seqLen: number;
  nodes: StructureNode[];
  /**
   * Added: true when the tower always runs at seqLen (image patches, audio frames, Whisper's 1500 encoder
   * positions); false when it runs at the text tokens (min(training/serving tokens, seqLen)).
   * Absent: true for roles vision/audio, false otherwise.
   */
  fixedSeq?: boolean;
};

export type ModelReading = {
  family: string;
  modelType: string;
  towers: TowerReading[];
  /** Decoder context the config allows (max_position_embeddings or equivalent); null when none. */
  contextLength: number | null;
  /** Vocabulary and width of the LM head, for logits memory; null for models without an LM head. */
  lmHead: { vocab: number; hidden: number } | null;
  tiedEmbedding: boolean;
  /** The tied embedding's parameter count (counted once in the total). */
  embeddingParams: number;
  kvLayers: KvLayer[];
  /**
   * Non-parameter buffers the family's modeling code registers as persistent, which a checkpoint may therefore
   * store (BERT/RoBERTa `embeddings.position_ids`, GPT-2 `h.N.attn.bias`, BART `final_logits_bias`): set aside by
   * name, never counted as parameters. `suffix` ends each tensor's name; `count` tensors of `scalarsEach`.
   * Whether a given checkpoint holds them is read from its headers when known.
   */
  storedBuffers?: StoredBuffer[];
  /**
   * Weights some published checkpoints of the family store beside the model that the config does not declare
   * and the model does not load (Qwen3-Next's mtp.* layer): parameters, so a stored total may include them.
   */
  undeclaredWeights?: { name: string; scalars: number }[];
  /**
   * The quantization some readers note (moe-frame's readQuantization), with approximate bytes per weight.
   * Informational: weights, memory and fit read `quantization_config` themselves (quantization.ts, weights.ts).
   */
  quantization?: { method: string; bytesPerWeight: number; appliesTo: "all" | "experts" | "linears" };
  warnings: string[];
};

/**
 * A tensor a checkpoint may store that is not a parameter of the model as built: a persistent buffer, or a module
 * the architecture does not build (a RoBERTa pooler under a MaskedLM head). `presence`: "always" (default) when
 * the family's modeling code saves it; "maybe" when only some published checkpoints have it. With headers, the
 * tensors present decide; without, "always" ones are expected.
 */
export type StoredBuffer = {
  suffix: string;
  count: number;
  scalarsEach: number;
  dtype: string;
  presence?: "always" | "maybe";
};

/** A family reader: validated config in, structure out. Throws EstimatorInputError on bad input. */
export type FamilyReader = (cfg: ConfigView) => ModelReading;

export type TensorHeader = { name: string; dtype: string; shape: number[] };

export type CheckpointInput = {
  tensors?: TensorHeader[];
  /** model.safetensors.index.json's metadata.total_size (bytes), when only the index is known. */
  indexTotalSizeBytes?: number;
};

export type MemoryFigure = {
  bytes: number;
  tokens: number;
  batch: number;
  breakdown: Record<string, number>;
  /** Added: bytes less the LM-head logits part (the seed pages' figure); set on training figures. */
  bytesWithoutLogits?: number;
};

export type FitMode = "full_finetune" | "lora" | "serve";
export type FitVerdict = "fits" | "borderline" | "cards" | "does_not_fit";

export type FitRow = {
  card: string;
  capacityGb: number;
  mode: FitMode;
  verdict: FitVerdict;
  /** Largest batch on one card (0 when it does not hold batch 1). */
  batch: number;
  /** Layer split across cards, e.g. [174, 44], when verdict is "cards". */
  split: number[] | null;
  /** The cell as a person reads it: "batch 5, borderline", "2 cards at batch 1 (174 + 44 layers)". */
  text: string;
};
