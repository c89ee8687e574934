/**
 * falcon (modeling_falcon.py / configuration_falcon.py), including the old RefinedWeb / RefinedWebModel
 * configs read by the checkpoints' own modelling_RW.py, with n_embed / n_layer / n_head / n_head_kv keys.
 * Those carry no new_decoder_architecture key: falcon-40b's modelling_RW.py (the new architecture) reads
 * n_head_kv, falcon-7b's reads multi_query, so an old config with n_head_kv is read as the new architecture.
 * Attention: one fused query_key_value of (2 kv + heads) x head_dim outputs with the new decoder
 * architecture, h + 2 head_dim with multi_query (one k/v head), else 3h; dense h -> h; both with `bias`.
 * MLP: dense_h_to_4h (h -> ffn_hidden_size, default 4h) and dense_4h_to_h, GELU, with `bias`.
 * LayerNorms (weight and bias) per layer: sequential layers (parallel_attn false) have
 * input_layernorm and post_attention_layernorm; parallel layers have ln_attn and ln_mlp when
 * num_ln_in_parallel_attn is 2 (the default with the new architecture), else one input_layernorm.
 * Final ln_f; LM head tied by default (many checkpoints store lm_head.weight as well). ALiBi and
 * rotary positions have no parameters. The cache keeps num_kv_heads heads (1 with multi_query).
 */
import { type ConfigView, divisible } from "../config-view.ts";
import type { ModelReading } from "../types.ts";
import {
  type DefaultsUsed,
  defaultsWarning,
  intOr,
  type LayerShape,
  repeatLayer,
  textFrameTower,
  textModel,
} from "./decoder-kit.ts";
import { fullKv, textSeq } from "./moe-frame.ts";
import { lin, type Piece, plainMlp } from "./moe-parts.ts";

type Attn = { piece: Piece; cachedKv: number; headDim: number };

function falconAttention(cfg: ConfigView, hidden: number, newArch: boolean, bias: boolean): Attn {
  const heads = cfg.intOf(["num_attention_heads", "n_head"], { max: 100_000 });
  const headDim = divisible(cfg, "hidden_size", hidden, heads, "the number of attention heads");
  const kvKeys = ["num_kv_heads", "n_head_kv"];
  const kv = kvKeys.some((k) => cfg.has(k)) ? cfg.intOf(kvKeys, { max: heads }) : heads;
  const multiQuery = cfg.bool("multi_query", true);
  const qkvOut = newArch ? (2 * kv + heads) * headDim : multiQuery ? hidden + 2 * headDim : 3 * hidden;
  const cachedKv = newArch || !multiQuery ? kv : 1;
  const q = heads * headDim;
  const type =
    cachedKv === 1 ? "Multi-Query Attn" : cachedKv < heads ? "Grouped Query Attn" : "Multi-Head Attn";
  const piece: Piece = {
    type,
    params: hidden * qkvOut + hidden * hidden + (bias ? qkvOut + hidden : 0),
    actElems: 2 * q + 2 * cachedKv * headDim,
    linears: [lin(hidden, qkvOut), lin(hidden, hidden)],
  };
  return { piece, cachedKv, headDim };
}

/** falcon / RefinedWeb / RefinedWebModel. */
export function readFalcon(cfg: ConfigView): ModelReading {
  const used: DefaultsUsed = [];
  const hidden = cfg.intOf(["hidden_size", "n_embed"]);
  const layers = cfg.intOf(["num_hidden_layers", "n_layer"], { max: 10_000 });
  const type = cfg.optStr("model_type");
  const oldRw = type === "RefinedWeb" || type === "RefinedWebModel";
  const newArch = cfg.bool("new_decoder_architecture", oldRw && cfg.has("n_head_kv"));
  const bias = cfg.bool("bias", false);
  const a = falconAttention(cfg, hidden, newArch, bias);
  const mlp = plainMlp(hidden, cfg.optInt("ffn_hidden_size", 4 * hidden), bias, "GELU MLP");
  const parallel = cfg.bool("parallel_attn", true);
  const lnIn = cfg.optInt("num_ln_in_parallel_attn", newArch ? 2 : 1, { max: 2 });
  const shape: LayerShape = parallel ? "parallel" : "pre";
  const twoNorms = parallel && lnIn === 2;
  if (twoNorms) a.piece.actElems += hidden; // ln_mlp output beside ln_attn's
  const vocab = cfg.int("vocab_size");
  const context = intOr(cfg, "max_position_embeddings", 2048, used);
  const tied = cfg.bool("tie_word_embeddings", true);
  const normType = twoNorms ? "LayerNorm x2" : "LayerNorm";
  const spec = { normType, mixer: a.piece, ffn: mlp, norm1: (twoNorms ? 4 : 2) * hidden, norm2: 2 * hidden };
  if (parallel) mlp.type = "GELU MLP (parallel)";
  const tower = textFrameTower({
    seq: textSeq(context),
    hidden,
    vocab,
    layers: repeatLayer(layers, spec),
    shape,
    tied,
    finalNorm: 2 * hidden,
    normType: "LayerNorm",
    rope: !cfg.bool("alibi", false),
  });
  const kv = fullKv(a.cachedKv, a.headDim);
  return textModel({
    cfg,
    family: "falcon",
    hidden,
    vocab,
    context,
    tied,
    towers: [tower],
    kvLayers: Array.from({ length: layers }, () => kv),
    warnings: defaultsWarning("FalconConfig", used),
  });
}
