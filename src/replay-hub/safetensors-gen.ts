/** Generates safetensors headers (names, dtypes, shapes, offsets) consistent with a transformers config. */
type Tensor = { name: string; shape: number[] };
type Config = Record<string, unknown>;
type WeightLayout = {
  files: Record<string, Record<string, unknown>>;
  index?: Record<string, unknown>;
};
export type WeightOptions = { shards?: number; storeLmHead?: boolean; metadata?: Record<string, string> };

const DTYPE_BYTES: Record<string, number> = { F32: 4, BF16: 2, F16: 2, F8_E4M3: 1, I64: 8 };

function num(config: Config, key: string, fallback?: number): number {
  const v = config[key] ?? fallback;
  if (typeof v !== "number") throw new Error(`config.${key} missing`);
  return v;
}

function dtypeOf(config: Config): string {
  const t = String(config.torch_dtype ?? config.dtype ?? "float32");
  return t === "bfloat16" ? "BF16" : t === "float16" ? "F16" : "F32";
}

function layerTensors(config: Config, i: number): Tensor[] {
  const h = num(config, "hidden_size");
  const heads = num(config, "num_attention_heads");
  const kv = num(config, "num_key_value_heads", heads);
  const hd = num(config, "head_dim", h / heads);
  const inter = num(config, "intermediate_size");
  const p = `model.layers.${i}`;
  const qwen2 = config.model_type === "qwen2";
  const out: Tensor[] = [
    { name: `${p}.input_layernorm.weight`, shape: [h] },
    { name: `${p}.mlp.down_proj.weight`, shape: [h, inter] },
    { name: `${p}.mlp.gate_proj.weight`, shape: [inter, h] },
    { name: `${p}.mlp.up_proj.weight`, shape: [inter, h] },
    { name: `${p}.post_attention_layernorm.weight`, shape: [h] },
    { name: `${p}.self_attn.k_proj.weight`, shape: [kv * hd, h] },
    { name: `${p}.self_attn.o_proj.weight`, shape: [h, heads * hd] },
    { name: `${p}.self_attn.q_proj.weight`, shape: [heads * hd, h] },
    { name: `${p}.self_attn.v_proj.weight`, shape: [kv * hd, h] },
  ];
  if (qwen2 || config.attention_bias === true) {
    out.push({ name: `${p}.self_attn.k_proj.bias`, shape: [kv * hd] });
    out.push({ name: `${p}.self_attn.q_proj.bias`, shape: [heads * hd] });
    out.push({ name: `${p}.self_attn.v_proj.bias`, shape: [kv * hd] });
  }
  if (config.model_type === "qwen3") {
    out.push({ name: `${p}.self_attn.k_norm.weight`, shape: [hd] });
    out.push({ name: `${p}.self_attn.q_norm.weight`, shape: [hd] });
  }
  return out;
}

/** llama / qwen2 / qwen3 style decoder; lm_head only when untied or `storeLmHead` (tied weight saved twice). */
function decoderTensors(config: Config, storeLmHead = false): Tensor[] {
  const h = num(config, "hidden_size");
  const vocab = num(config, "vocab_size");
  const out: Tensor[] = [{ name: "model.embed_tokens.weight", shape: [vocab, h] }];
  for (let i = 0; i < num(config, "num_hidden_layers"); i++) out.push(...layerTensors(config, i));
  out.push({ name: "model.norm.weight", shape: [h] });
  if (config.tie_word_embeddings !== true || storeLmHead)
    out.push({ name: "lm_head.weight", shape: [vocab, h] });
  return out;
}

/** GPT-2 as stored on the Hub: no prefix, Conv1D weights, causal-mask `attn.bias` buffers. */
function gpt2Tensors(config: Config): Tensor[] {
  const e = num(config, "n_embd");
  const ctx = num(config, "n_ctx", num(config, "n_positions"));
  const out: Tensor[] = [
    { name: "wte.weight", shape: [num(config, "vocab_size"), e] },
    { name: "wpe.weight", shape: [num(config, "n_positions"), e] },
  ];
  for (let i = 0; i < num(config, "n_layer"); i++) {
    const p = `h.${i}`;
    out.push(
      { name: `${p}.attn.bias`, shape: [1, 1, ctx, ctx] },
      { name: `${p}.attn.c_attn.bias`, shape: [3 * e] },
      { name: `${p}.attn.c_attn.weight`, shape: [e, 3 * e] },
      { name: `${p}.attn.c_proj.bias`, shape: [e] },
      { name: `${p}.attn.c_proj.weight`, shape: [e, e] },
      { name: `${p}.ln_1.bias`, shape: [e] },
      { name: `${p}.ln_1.weight`, shape: [e] },
      { name: `${p}.ln_2.bias`, shape: [e] },
      { name: `${p}.ln_2.weight`, shape: [e] },
      { name: `${p}.mlp.c_fc.bias`, shape: [4 * e] },
      { name: `${p}.mlp.c_fc.weight`, shape: [e, 4 * e] },
      { name: `${p}.mlp.c_proj.bias`, shape: [e] },
      { name: `${p}.mlp.c_proj.weight`, shape: [4 * e, e] },
    );
  }
  out.push({ name: "ln_f.bias", shape: [e] }, { name: "ln_f.weight", shape: [e] });
  return out;
}

function toHeader(
  tensors: Tensor[],
  dtype: string,
  metadata: Record<string, string>,
): Record<string, unknown> {
  const header: Record<string, unknown> = { __metadata__: metadata };
  let offset = 0;
  for (const t of [...tensors].sort((a, b) => a.name.localeCompare(b.name))) {
    const bytes = t.shape.reduce((a, b) => a * b, 1) * (DTYPE_BYTES[dtype] ?? 4);
    header[t.name] = { dtype, shape: t.shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  return header;
}

/** File name of shard i (1-based) of n, as transformers writes it. */
function shardName(i: number, n: number): string {
  return `model-${String(i).padStart(5, "0")}-of-${String(n).padStart(5, "0")}.safetensors`;
}

/** Headers for model.safetensors, or n shards plus model.safetensors.index.json, derived from a config. */
export function weightLayout(config: Config, opts: WeightOptions = {}): WeightLayout {
  const tensors =
    config.model_type === "gpt2" ? gpt2Tensors(config) : decoderTensors(config, opts.storeLmHead);
  const dtype = config.model_type === "gpt2" ? "F32" : dtypeOf(config);
  const metadata = { format: "pt", ...opts.metadata };
  const n = opts.shards ?? 1;
  if (n <= 1) return { files: { "model.safetensors": toHeader(tensors, dtype, metadata) } };
  const per = Math.ceil(tensors.length / n);
  const files: WeightLayout["files"] = {};
  const weightMap: Record<string, string> = {};
  let totalSize = 0;
  for (let i = 0; i < n; i++) {
    const part = tensors.slice(i * per, (i + 1) * per);
    const name = shardName(i + 1, n);
    files[name] = toHeader(part, dtype, metadata);
    for (const t of part) {
      weightMap[t.name] = name;
      totalSize += t.shape.reduce((a, b) => a * b, 1) * (DTYPE_BYTES[dtype] ?? 4);
    }
  }
  const sortedMap = Object.fromEntries(Object.entries(weightMap).sort(([a], [b]) => a.localeCompare(b)));
  return { files, index: { metadata: { total_size: totalSize }, weight_map: sortedMap } };
}
