/**
 * The fallback for unknown model_types: a pre-norm decoder read from the usual keys, every guessed key
 * named in a warning. A missing key is an error, never a default size.
 */
import { type ConfigView, divisible } from "./config-view.ts";
import {
  asHead,
  at,
  attention,
  decoderReading,
  embedding,
  kvFull,
  lmHead,
  norm,
  type Place,
  place,
  preNormLayer,
  swiglu,
} from "./families/blocks.ts";
import type { ModelReading, StructureNode } from "./types.ts";

function pick(cfg: ConfigView, keys: string[], warnings: string[]): number {
  const key = keys.find((k) => cfg.has(k));
  const value = cfg.intOf(keys);
  warnings.push(`guessed ${cfg.keyName(key ?? keys[0]!)} = ${value} as ${keys[0]}`);
  return value;
}

/** Generic reading: Llama-shaped blocks at the config's sizes. */
export function readGeneric(cfg: ConfigView): ModelReading {
  const modelType = cfg.optStr("model_type") ?? "";
  const warnings = [
    `unknown model_type "${modelType || "(none)"}": generic decoder reading of the usual keys`,
  ];
  const hidden = pick(cfg, ["hidden_size", "n_embd", "d_model"], warnings);
  const layers = pick(cfg, ["num_hidden_layers", "n_layer", "num_layers"], warnings);
  const heads = pick(cfg, ["num_attention_heads", "n_head"], warnings);
  const kvHeads = cfg.has("num_key_value_heads") ? pick(cfg, ["num_key_value_heads"], warnings) : heads;
  divisible(cfg, "num_key_value_heads", heads, kvHeads, "num_key_value_heads");
  const headDim = divisible(cfg, "hidden_size", hidden, heads, "num_attention_heads");
  const inter = pick(cfg, ["intermediate_size", "n_inner", "ffn_dim"], warnings);
  const vocab = pick(cfg, ["vocab_size"], warnings);
  const context = cfg.has("max_position_embeddings") ? cfg.int("max_position_embeddings") : null;
  const tied = cfg.bool("tie_word_embeddings", true);
  const p: Place = place(context ?? 2048);
  const nodes: StructureNode[] = [embedding(p, vocab, hidden)];
  const spec = { hidden, heads, kvHeads, headDim, qkvBias: false, oBias: false };
  for (let i = 1; i <= layers; i++) {
    const q = at(p, i);
    nodes.push(
      ...preNormLayer(
        p,
        i,
        "RMSNorm",
        hidden,
        attention(q, `Attention_${i}`, spec),
        swiglu(q, `FFN_${i}`, hidden, inter),
      ),
    );
  }
  nodes.push(
    ...asHead([
      norm(p, "RMSNorm_out", "RMSNorm", hidden),
      lmHead(p, hidden, vocab, tied ? "Embedding" : null),
    ]),
  );
  return decoderReading({
    family: "generic",
    modelType,
    nodes,
    context,
    vocab,
    hidden,
    tied,
    kvLayers: Array.from({ length: layers }, () => kvFull(kvHeads, headDim)),
    warnings,
  });
}
