/**
 * The wav2vec2 / HuBERT front end (modeling_wav2vec2.py, modeling_hubert.py): the convolutional feature encoder
 * (Wav2Vec2{Group,Layer,No}NormConvLayer: Conv1d conv_dim[i-1] -> conv_dim[i], kernel conv_kernel[i], stride
 * conv_stride[i], bias per conv_bias; GroupNorm(affine) on layer 0 for feat_extract_norm "group", a LayerNorm on
 * every layer for "layer"), the feature projection (LayerNorm over conv_dim[-1], Linear to hidden_size), and the
 * positional convolution (Conv1d hidden -> hidden, kernel num_conv_pos_embeddings, groups
 * num_conv_pos_embedding_groups, with weight norm over dim 2: weight_v, weight_g of kernel scalars, bias).
 */
import type { ConfigView } from "../config-view.ts";
import type { StructureNode } from "../types.ts";
import { linear, node, norm, type Place } from "./blocks.ts";

const BF16 = 2;
/** The feature extractor's sampling rate (Wav2Vec2FeatureExtractor, 16 kHz). */
export const SAMPLE_RATE = 16_000;

/** Wav2Vec2Config's feature-encoder defaults. */
const CONV_DIM = [512, 512, 512, 512, 512, 512, 512];
const CONV_KERNEL = [10, 3, 3, 3, 3, 2, 2];
const CONV_STRIDE = [5, 2, 2, 2, 2, 2, 2];

function intList(cfg: ConfigView, key: string, fallback: number[]): number[] {
  const list = cfg.optArray(key) ?? fallback;
  if (list.some((x) => typeof x !== "number" || !Number.isInteger(x) || x < 1))
    cfg.fail(key, "expected positive integers");
  return list as number[];
}

type ConvStack = { dims: number[]; kernels: number[]; strides: number[] };

export function convStack(cfg: ConfigView): ConvStack {
  const dims = intList(cfg, "conv_dim", CONV_DIM);
  const kernels = intList(cfg, "conv_kernel", CONV_KERNEL);
  const strides = intList(cfg, "conv_stride", CONV_STRIDE);
  if (kernels.length !== dims.length)
    cfg.fail("conv_kernel", `has ${kernels.length} entries for ${dims.length} conv layers`);
  if (strides.length !== dims.length)
    cfg.fail("conv_stride", `has ${strides.length} entries for ${dims.length} conv layers`);
  return { dims, kernels, strides };
}

/** Frames after each conv layer for `samples` input samples (no padding: floor((L - k) / s) + 1). */
export function convLengths(s: ConvStack, samples: number): number[] {
  const out: number[] = [];
  let length = samples;
  for (let i = 0; i < s.dims.length; i++) {
    length = Math.max(1, Math.floor((length - s.kernels[i]!) / s.strides[i]!) + 1);
    out.push(length);
  }
  return out;
}

/**
 * One node per conv layer. The layers run at their own (long) lengths, so their activations are per sample
 * (conv output, norm output where there is one, GELU output), not per encoder frame.
 */
export function featureEncoderNodes(
  p: Place,
  cfg: ConfigView,
  s: ConvStack,
  lengths: number[],
): StructureNode[] {
  const normKind = cfg.optStr("feat_extract_norm") ?? "group";
  if (normKind !== "group" && normKind !== "layer")
    cfg.fail("feat_extract_norm", `"${normKind}" is not "group" or "layer"`);
  const bias = cfg.bool("conv_bias", false);
  const nodes: StructureNode[] = [];
  for (let i = 0; i < s.dims.length; i++) {
    const out = s.dims[i]!;
    const inC = i === 0 ? 1 : s.dims[i - 1]!;
    const normed = normKind === "layer" || i === 0;
    const params = out * inC * s.kernels[i]! + (bias ? out : 0) + (normed ? 2 * out : 0);
    const n = node(
      p,
      `FeatureEncoder.Conv_${i + 1}`,
      `Conv1d k${s.kernels[i]} s${s.strides[i]}${normed ? ` + ${normKind === "layer" ? "LayerNorm" : "GroupNorm"}` : ""} + GELU`,
      out,
      params,
      0,
    );
    n.shape = [lengths[i]!, out];
    n.actBytesPerSample = BF16 * lengths[i]! * out * (normed ? 3 : 2);
    nodes.push(n);
  }
  return nodes;
}

/** Feature projection: optional LayerNorm over the last conv width, then Linear(conv_dim[-1] -> hidden). */
export function featureProjection(p: Place, last: number, hidden: number, layerNorm: boolean): StructureNode {
  const params = (layerNorm ? 2 * last : 0) + last * hidden + hidden;
  return node(
    p,
    "FeatureProjection",
    layerNorm ? "LayerNorm + Linear" : "Linear",
    hidden,
    params,
    BF16 * (last + hidden),
    [{ in: last, out: hidden, count: 1 }],
  );
}

/**
 * Positional convolution. Weight norm stores weight_v (hidden x hidden/groups x kernel) and weight_g (kernel
 * scalars: the norm is taken over dim 2); HuBERT's conv_pos_batch_norm variant has a BatchNorm1d and no weight norm.
 */
export function positionalConv(p: Place, cfg: ConfigView, hidden: number): StructureNode {
  const kernel = cfg.optInt("num_conv_pos_embeddings", 128);
  const groups = cfg.optInt("num_conv_pos_embedding_groups", 16);
  if (hidden % groups !== 0)
    cfg.fail("num_conv_pos_embedding_groups", `${groups} does not divide hidden_size ${hidden}`);
  const batchNorm = cfg.bool("conv_pos_batch_norm", false);
  const params = hidden * (hidden / groups) * kernel + hidden + (batchNorm ? 2 * hidden : kernel);
  return node(
    p,
    "PosConvEmbed",
    `Conv1d k${kernel} g${groups}${batchNorm ? " + BatchNorm" : " (weight norm)"} + GELU`,
    hidden,
    params,
    BF16 * 2 * hidden,
  );
}

/** Wav2Vec2Adapter: an optional projection to output_hidden_size, then strided Conv1d (out -> 2 x out, GLU) layers. */
export function adapterNodes(p: Place, cfg: ConfigView, h: number): { nodes: StructureNode[]; out: number } {
  if (!cfg.bool("add_adapter", false)) return { nodes: [], out: h };
  const out = cfg.optInt("output_hidden_size", h);
  const nodes: StructureNode[] = [];
  if (out !== h)
    nodes.push(
      linear(p, "Adapter.Proj", "Linear + LayerNorm", h, out, true),
      norm(p, "Adapter.ProjNorm", "LayerNorm", out),
    );
  const kernel = cfg.optInt("adapter_kernel_size", 3);
  for (let i = 1, n = cfg.optInt("num_adapter_layers", 3, { max: 1000 }); i <= n; i++) {
    nodes.push(
      node(
        p,
        `Adapter.Conv_${i}`,
        `Conv1d k${kernel} + GLU`,
        out,
        out * 2 * out * kernel + 2 * out,
        2 * 3 * out,
      ),
    );
  }
  return { nodes, out };
}
