/**
 * GGUF headers like llama.cpp's convert_hf_to_gguf.py + llama-quantize write them for a llama-style
 * transformers config: the llama.* metadata keys, a tokenizer (ids in place of the real vocabulary's
 * strings, the special tokens' real text), the chat template, and tensor infos named and shaped as
 * llama.cpp names them (shape[0] is the row length), typed per quant scheme as llama_tensor_get_type
 * does for the common cases (Q4_K_M: output and every other attn_v / ffn_down at Q6_K).
 */
import { ggmlTypeId } from "../core/estimator/gguf/ggml-types.ts";
import { type EncodedGguf, encodeGguf, f32, type GgufKvInput, type GgufTensorSpec } from "./gguf-writer.ts";

type Config = Record<string, unknown>;

/** Schemes and their general.file_type (llama.cpp's llama_ftype). */
const GGUF_SCHEMES = { F16: 1, BF16: 32, Q8_0: 7, Q6_K: 18, Q4_K_M: 15, IQ4_XS: 30 } as const;
export type GgufScheme = keyof typeof GGUF_SCHEMES;

export type GgufGenOptions = {
  name: string;
  scheme: GgufScheme;
  chatTemplate?: string;
  /** Special tokens by id (their text); every other token is `<t{id}>`. */
  specialTokens?: Record<number, string>;
  bosId?: number;
  eosId?: number;
  /** Extra or overriding metadata. */
  metadata?: Record<string, GgufKvInput>;
  /** Per-tensor type overrides by name (a re-made file). */
  typeOverrides?: Record<string, GgufScheme | "Q6_K" | "Q8_0" | "F32">;
};

function num(c: Config, key: string, fallback?: number): number {
  const v = c[key] ?? fallback;
  if (typeof v !== "number") throw new Error(`config.${key} missing`);
  return v;
}

/** llama.cpp's use_more_bits: the first and last eighth of the layers and every third one between. */
function moreBits(i: number, n: number): boolean {
  return i < n / 8 || i >= (7 * n) / 8 || (i - Math.floor(n / 8)) % 3 === 2;
}

function typeFor(scheme: GgufScheme, name: string, layer: number, layers: number): string {
  if (scheme === "F16" || scheme === "BF16" || scheme === "Q8_0" || scheme === "Q6_K") return scheme;
  const base = scheme === "Q4_K_M" ? "Q4_K" : "IQ4_XS";
  if (name === "output.weight") return "Q6_K";
  if (scheme === "Q4_K_M" && /attn_v|ffn_down/.test(name) && moreBits(layer, layers)) return "Q6_K";
  return base;
}

type Shape = { name: string; shape: number[]; layer: number };

function shapes(c: Config): Shape[] {
  const h = num(c, "hidden_size");
  const heads = num(c, "num_attention_heads");
  const kv = num(c, "num_key_value_heads", heads);
  const hd = num(c, "head_dim", h / heads);
  const ffn = num(c, "intermediate_size");
  const vocab = num(c, "vocab_size");
  const n = num(c, "num_hidden_layers");
  const out: Shape[] = [{ name: "token_embd.weight", shape: [h, vocab], layer: -1 }];
  for (let i = 0; i < n; i++) {
    const b = (s: string, shape: number[]) => out.push({ name: `blk.${i}.${s}.weight`, shape, layer: i });
    b("attn_norm", [h]);
    b("attn_q", [h, heads * hd]);
    b("attn_k", [h, kv * hd]);
    b("attn_v", [h, kv * hd]);
    b("attn_output", [heads * hd, h]);
    b("ffn_norm", [h]);
    b("ffn_gate", [h, ffn]);
    b("ffn_up", [h, ffn]);
    b("ffn_down", [ffn, h]);
  }
  out.push({ name: "output_norm.weight", shape: [h], layer: -1 });
  if (c.tie_word_embeddings !== true) out.push({ name: "output.weight", shape: [h, vocab], layer: -1 });
  const rope = c.rope_scaling as { rope_type?: string } | undefined;
  if (rope?.rope_type === "llama3") out.push({ name: "rope_freqs.weight", shape: [hd / 2], layer: -1 });
  return out;
}

function tensors(c: Config, o: GgufGenOptions): GgufTensorSpec[] {
  const layers = num(c, "num_hidden_layers");
  return shapes(c).map(({ name, shape, layer }) => {
    const type =
      shape.length === 1 ? "F32" : (o.typeOverrides?.[name] ?? typeFor(o.scheme, name, layer, layers));
    return { name, shape, type: ggmlTypeId(type)! };
  });
}

function metadata(c: Config, o: GgufGenOptions): Record<string, GgufKvInput> {
  const h = num(c, "hidden_size");
  const heads = num(c, "num_attention_heads");
  const hd = num(c, "head_dim", h / heads);
  const vocab = num(c, "vocab_size");
  const special = o.specialTokens ?? {};
  const tokens = Array.from({ length: vocab }, (_, i) => special[i] ?? `<t${i}>`);
  const meta: Record<string, GgufKvInput> = {
    "general.architecture": "llama",
    "general.type": "model",
    "general.name": o.name,
    "llama.block_count": num(c, "num_hidden_layers"),
    "llama.context_length": num(c, "max_position_embeddings"),
    "llama.embedding_length": h,
    "llama.feed_forward_length": num(c, "intermediate_size"),
    "llama.attention.head_count": heads,
    "llama.attention.head_count_kv": num(c, "num_key_value_heads", heads),
    "llama.rope.freq_base": f32(num(c, "rope_theta", 10000)),
    "llama.attention.layer_norm_rms_epsilon": f32(num(c, "rms_norm_eps", 1e-5)),
    "llama.attention.key_length": hd,
    "llama.attention.value_length": hd,
    "llama.rope.dimension_count": hd,
    "llama.vocab_size": vocab,
    "general.file_type": GGUF_SCHEMES[o.scheme],
    "tokenizer.ggml.model": "gpt2",
    "tokenizer.ggml.pre": "llama-bpe",
    "tokenizer.ggml.tokens": tokens,
    "tokenizer.ggml.token_type": tokens.map((_, i) => (special[i] ? 3 : 1)),
    "tokenizer.ggml.bos_token_id": o.bosId ?? num(c, "bos_token_id", 1),
    "tokenizer.ggml.eos_token_id": o.eosId ?? num(c, "eos_token_id", 2),
  };
  if (o.chatTemplate !== undefined) meta["tokenizer.chat_template"] = o.chatTemplate;
  meta["general.quantization_version"] = 2;
  return { ...meta, ...o.metadata };
}

/** The GGUF header (and data size) of `config` quantized as `o.scheme`. */
export function llamaGguf(config: Config, o: GgufGenOptions): EncodedGguf {
  return encodeGguf(metadata(config, o), tensors(config, o));
}
