import { describe, expect, it } from "vitest";
import { estimate } from "./estimate.ts";
import type { TensorHeader } from "./types.ts";

const H = 64;
const cfg = {
  model_type: "qwen3",
  hidden_size: H,
  num_hidden_layers: 2,
  num_attention_heads: 4,
  num_key_value_heads: 2,
  head_dim: 16,
  intermediate_size: 128,
  vocab_size: 1000,
  max_position_embeddings: 4096,
  tie_word_embeddings: true,
};

/** Headers as transformers names a Qwen3 checkpoint. */
function qwen3Headers(dtype = "BF16", withHead = false): TensorHeader[] {
  const t: TensorHeader[] = [{ name: "model.embed_tokens.weight", dtype, shape: [1000, H] }];
  for (let i = 0; i < 2; i++) {
    const p = `model.layers.${i}`;
    t.push(
      { name: `${p}.input_layernorm.weight`, dtype, shape: [H] },
      { name: `${p}.self_attn.q_proj.weight`, dtype, shape: [64, H] },
      { name: `${p}.self_attn.k_proj.weight`, dtype, shape: [32, H] },
      { name: `${p}.self_attn.v_proj.weight`, dtype, shape: [32, H] },
      { name: `${p}.self_attn.o_proj.weight`, dtype, shape: [H, 64] },
      { name: `${p}.self_attn.q_norm.weight`, dtype, shape: [16] },
      { name: `${p}.self_attn.k_norm.weight`, dtype, shape: [16] },
      { name: `${p}.post_attention_layernorm.weight`, dtype, shape: [H] },
      { name: `${p}.mlp.gate_proj.weight`, dtype, shape: [128, H] },
      { name: `${p}.mlp.up_proj.weight`, dtype, shape: [128, H] },
      { name: `${p}.mlp.down_proj.weight`, dtype, shape: [H, 128] },
    );
  }
  t.push({ name: "model.norm.weight", dtype, shape: [H] });
  if (withHead) t.push({ name: "lm_head.weight", dtype, shape: [1000, H] });
  return t;
}

describe("checkpoint analysis", () => {
  it("agrees exactly with a matching header", () => {
    const e = estimate(cfg, { checkpoint: { tensors: qwen3Headers() } });
    expect(e.checkpoint!.stored_total).toBe(e.params.total);
    expect(e.checkpoint!.delta).toBe(0);
    expect(e.checkpoint!.tied_embedding_stored_twice).toBe(false);
    expect(e.checkpoint!.dtypes).toEqual({ BF16: e.params.total });
  });

  it("reports a tied embedding stored twice and the scalars the copy adds", () => {
    const e = estimate(cfg, { checkpoint: { tensors: qwen3Headers("BF16", true) } });
    const c = e.checkpoint!;
    expect(c.tied_embedding_stored_twice).toBe(true);
    expect(c.extra_scalars).toBe(1000 * H);
    expect(c.tied_tensors).toEqual(["lm_head.weight", "model.embed_tokens.weight"]);
    expect(c.tied_shape).toEqual([1000, H]);
    expect(c.delta).toBe(0);
  });

  it("sets buffers aside and lists them", () => {
    const tensors = [
      ...qwen3Headers(),
      { name: "model.layers.0.attn.bias", dtype: "F32", shape: [1, 1, 32, 32] },
    ];
    tensors.push({ name: "embeddings.position_ids", dtype: "I64", shape: [1, 512] });
    const c = estimate(cfg, { checkpoint: { tensors } }).checkpoint!;
    expect(c.buffers).toEqual([
      { name: "model.layers.0.attn.bias", scalars: 1024 },
      { name: "embeddings.position_ids", scalars: 512 },
    ]);
    expect(c.delta).toBe(0);
    expect(c.stored_total - c.compared_total).toBe(1536);
  });

  it("fp8 with block scales: logical count and about 1 byte per weight", () => {
    const tensors = qwen3Headers().map((t) =>
      t.name.endsWith("_proj.weight") ? { ...t, dtype: "F8_E4M3" } : t,
    );
    const scales = tensors
      .filter((t) => t.dtype === "F8_E4M3")
      .map((t) => ({ name: t.name.replace(/weight$/, "weight_scale_inv"), dtype: "F32", shape: [1, 1] }));
    const c = estimate(cfg, { checkpoint: { tensors: [...tensors, ...scales] } }).checkpoint!;
    expect(c.delta).toBe(0);
    expect(c.quantization!.method).toBe("fp8");
    expect(c.quantization!.bytes_per_weight).toBeGreaterThan(1);
    expect(c.quantization!.bytes_per_weight).toBeLessThan(1.01);
  });

  it("mxfp4 _blocks/_scales: two weights per stored byte", () => {
    const base = qwen3Headers().filter((t) => !t.name.includes("mlp."));
    const blocks: TensorHeader[] = [];
    for (let i = 0; i < 2; i++) {
      // gate+up+down = 3 * 128 * 64 weights = 24576 -> 12288 bytes in blocks of 16 bytes (32 weights) + one scale each
      blocks.push({ name: `model.layers.${i}.mlp.experts.blocks_blocks`, dtype: "U8", shape: [768, 16] });
      blocks.push({ name: `model.layers.${i}.mlp.experts.blocks_scales`, dtype: "U8", shape: [768] });
    }
    const c = estimate(cfg, { checkpoint: { tensors: [...base, ...blocks] } }).checkpoint!;
    expect(c.quantization!.method).toBe("mxfp4");
    expect(c.delta).toBe(0);
    expect(c.quantization!.bytes_per_weight).toBeCloseTo(17 / 32, 6);
  });

  it("int4 pack-quantized: eight weights per int32", () => {
    const t = qwen3Headers().flatMap((h) =>
      h.name.endsWith("_proj.weight")
        ? [
            {
              name: h.name.replace(/weight$/, "weight_packed"),
              dtype: "I32",
              shape: [h.shape[0]!, h.shape[1]! / 8],
            },
            { name: h.name.replace(/weight$/, "weight_scale"), dtype: "BF16", shape: [h.shape[0]!, 1] },
          ]
        : [h],
    );
    const c = estimate(cfg, { checkpoint: { tensors: t } }).checkpoint!;
    expect(c.quantization!.method).toBe("int4_pack_quantized");
    expect(c.delta).toBe(0);
  });

  it("falls back to the index's total_size", () => {
    const total = estimate(cfg).params.total;
    const c = estimate(cfg, { checkpoint: { indexTotalSizeBytes: 2 * total } }).checkpoint!;
    expect(c.source).toBe("index_total_size");
    expect(c.stored_total).toBe(total);
    expect(c.delta).toBe(0);
    expect(() => estimate(cfg, { checkpoint: { indexTotalSizeBytes: 0 } })).toThrow(/checkpoint/);
  });
});
