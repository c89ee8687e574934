/**
 * The fallback for unknown model_types: a pre-norm decoder read from the usual keys, every guessed key
 * named in a warning. A missing key is an error, never a default size. It honours head_dim (else
 * hidden / heads), attention_bias (q/k/v/o) and mlp_bias, and per-layer attention kinds for the cache
 * (a per-layer sliding_window list, layer_types, sliding_window_pattern, use_sliding_window /
 * max_window_layers); a sliding_window with none of those is cached in full on every layer, and said so.
 */
import { type ConfigView, divisible } from "./config-view.ts";
import { decoderReading, place } from "./families/blocks.ts";
import {
  type DecoderDims,
  type DenseOptions,
  denseDecoderNodes,
  hasLayerKinds,
  layerKv,
} from "./families/dense-decoder.ts";
import type { ModelReading } from "./types.ts";

function options(cfg: ConfigView): DenseOptions {
  const bias = cfg.bool("attention_bias", false);
  return {
    family: "generic",
    qkvBias: bias,
    oBias: bias,
    qkNorm: false,
    mlpBias: cfg.bool("mlp_bias", false),
    tieDefault: true,
    slidingByDefault: false,
  };
}

function pick(cfg: ConfigView, keys: string[], warnings: string[]): number {
  const key = keys.find((k) => cfg.has(k));
  const value = cfg.intOf(keys);
  warnings.push(`guessed ${cfg.keyName(key ?? keys[0]!)} = ${value} as ${keys[0]}`);
  return value;
}

/** Generic reading: Llama-shaped blocks (dense-decoder.ts) at the config's sizes, every guessed key named. */
export function readGeneric(cfg: ConfigView): ModelReading {
  const modelType = cfg.optStr("model_type") ?? "";
  const warnings = [
    `unknown model_type "${modelType || "(none)"}": generic decoder reading of the usual keys`,
  ];
  const hiddenKey = ["hidden_size", "n_embd", "d_model"].find((k) => cfg.has(k)) ?? "hidden_size";
  const hidden = pick(cfg, ["hidden_size", "n_embd", "d_model"], warnings);
  const layers = pick(cfg, ["num_hidden_layers", "n_layer", "num_layers"], warnings);
  const heads = pick(cfg, ["num_attention_heads", "n_head"], warnings);
  const kvHeads = cfg.has("num_key_value_heads") ? pick(cfg, ["num_key_value_heads"], warnings) : heads;
  divisible(cfg, "num_key_value_heads", heads, kvHeads, "num_key_value_heads");
  const d: DecoderDims = {
    hidden,
    layers,
    heads,
    kvHeads,
    headDim: cfg.has("head_dim")
      ? pick(cfg, ["head_dim"], warnings)
      : divisible(cfg, hiddenKey, hidden, heads, "the number of attention heads"),
    inter: pick(cfg, ["intermediate_size", "n_inner", "ffn_dim"], warnings),
    vocab: pick(cfg, ["vocab_size"], warnings),
    context: cfg.has("max_position_embeddings") ? cfg.int("max_position_embeddings") : null,
  };
  const tied = cfg.bool("tie_word_embeddings", true);
  const { body, head } = denseDecoderNodes(place(d.context ?? 2048), d, options(cfg), tied);
  if (cfg.has("sliding_window") && !hasLayerKinds(cfg) && !cfg.has("use_sliding_window")) {
    warnings.push(
      `${cfg.keyName("sliding_window")} without layer kinds: cache counted in full on every layer`,
    );
  }
  return decoderReading({
    family: "generic",
    modelType,
    nodes: body.concat(head),
    context: d.context,
    vocab: d.vocab,
    hidden,
    tied,
    kvLayers: layerKv(cfg, d, false),
    warnings,
  });
}
