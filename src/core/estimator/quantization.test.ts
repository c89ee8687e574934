import { describe, expect, it } from "vitest";
import { modelFixture } from "../../../test/helpers/model-fixtures.ts";
import { estimate } from "./estimate.ts";
import type { TensorHeader } from "./types.ts";

const cfg = (dir: string) => modelFixture(dir).config;
const serveRow = (e: ReturnType<typeof estimate>, card: string) =>
  e.fit.find((r) => r.mode === "serve" && r.card === card)!;

/** A small Llama: h 256, 2 layers, q/k/v/o 256 x 256 (4 heads of 64), MLP 256 -> 512, vocab 1000, untied. */
const tiny = {
  model_type: "llama",
  architectures: ["LlamaForCausalLM"],
  hidden_size: 256,
  intermediate_size: 512,
  num_hidden_layers: 2,
  num_attention_heads: 4,
  num_key_value_heads: 4,
  vocab_size: 1000,
  max_position_embeddings: 4096,
  tie_word_embeddings: false,
  torch_dtype: "float16",
};
/** Per layer: 4 attention matrices 256 x 256, 3 MLP matrices 256 x 512 (in x out or out x in). */
const LINEARS = [...Array.from({ length: 4 }, () => [256, 256]), [256, 512], [256, 512], [512, 256]] as const;

describe("quantized checkpoints are served at their real bytes", () => {
  it("gpt-oss-20b (mxfp4 experts) serves on a 24 GB card; gpt-oss-120b on one 80 GB card", () => {
    const small = estimate(cfg("openai__gpt-oss-20b"));
    expect(small.quantization).toEqual({ method: "mxfp4", bits: 4, group_size: 32 });
    expect(small.memory.serve.breakdown.weights).toBe(small.weights.bytes);
    // Experts at 0.5 + 1/32 bytes per weight, the rest bf16: a third of the bf16 size.
    expect(small.weights.bytes).toBeLessThan(0.35 * 2 * small.params.total);
    expect(["fits", "borderline"]).toContain(serveRow(small, "L4 24 GB").verdict);
    const big = estimate(cfg("openai__gpt-oss-120b"));
    expect(["fits", "borderline"]).toContain(serveRow(big, "A100 / H100 80 GB").verdict);
    // The same structure at bf16 would not fit: the verdict comes from the quantization.
    const { quantization_config: _q, ...bf16 } = cfg("openai__gpt-oss-120b") as Record<string, unknown>;
    expect(serveRow(estimate(bf16), "A100 / H100 80 GB").verdict).toBe("does_not_fit");
  });

  it("fp8 block scales: F8 weights + one F32 scale per 128 x 128 block; QLoRA keeps them, a full fine-tune dequantizes", () => {
    const e = estimate(cfg("Qwen__Qwen3-30B-A3B-FP8"));
    const bf16 = estimate(cfg("Qwen__Qwen3-30B-A3B"));
    expect(e.params.total).toBe(bf16.params.total);
    expect(Object.keys(e.weights.by_dtype).sort()).toEqual(["BF16", "F32", "F8_E4M3"]);
    expect(e.weights.bytes / bf16.weights.bytes).toBeGreaterThan(0.5);
    expect(e.weights.bytes / bf16.weights.bytes).toBeLessThan(0.52);
    expect(e.memory.lora.breakdown.base_weights).toBe(e.weights.bytes);
    expect(e.memory.full_finetune.breakdown.weights_grads_optimizer).toBe(
      bf16.memory.full_finetune.breakdown.weights_grads_optimizer,
    );
    expect(e.warnings.join(" ")).toMatch(/full fine-tune is costed dequantized/);
  });

  it("AWQ 4-bit, group 128: qweight and qzeros at 4 bits, fp16 scales per group and column, lm_head and norms fp16", () => {
    const q = { quant_method: "awq", bits: 4, group_size: 128, zero_point: true, version: "gemm" };
    const e = estimate({ ...tiny, quantization_config: q });
    let quantized = 0;
    let matrices = 0;
    for (const [i, o] of LINEARS) {
      quantized += i * o;
      matrices += (i / 128) * o * (2 + 0.5); // fp16 scale + 4-bit zero per group and column
    }
    const rest = e.params.total - 2 * quantized;
    expect(e.weights.bytes).toBe(2 * (quantized / 2 + matrices) + 2 * rest);
    expect(e.quantization).toEqual({ method: "awq", bits: 4, group_size: 128 });
    expect(Object.keys(e.weights.by_dtype).sort()).toEqual(["F16", "I32"]);
  });

  it("GPTQ adds an I32 g_idx per input row; bitsandbytes nf4 with double quant stores U8 absmax per 64", () => {
    const awq = estimate({ ...tiny, quantization_config: { quant_method: "awq", bits: 4, group_size: 128 } });
    const gptq = estimate({
      ...tiny,
      quantization_config: { quant_method: "gptq", bits: 4, group_size: 128 },
    });
    const rows = 2 * LINEARS.reduce((a, [i]) => a + i, 0);
    expect(gptq.weights.bytes - awq.weights.bytes).toBe(4 * rows);
    const bnb = estimate({
      ...tiny,
      quantization_config: {
        quant_method: "bitsandbytes",
        load_in_4bit: true,
        bnb_4bit_quant_type: "nf4",
        bnb_4bit_use_double_quant: true,
      },
    });
    expect(bnb.quantization?.method).toBe("bitsandbytes-nf4");
    expect(bnb.weights.by_dtype.U8).toBeGreaterThan(0);
    expect(bnb.weights.bytes).toBeLessThan(awq.weights.bytes * 1.05);
  });

  it("with headers, the stored bytes are the truth: AWQ tensors unpacked to the logical count, scales set aside", () => {
    const tensors: TensorHeader[] = [
      { name: "model.embed_tokens.weight", dtype: "F16", shape: [1000, 256] },
      { name: "lm_head.weight", dtype: "F16", shape: [1000, 256] },
      { name: "model.norm.weight", dtype: "F16", shape: [256] },
    ];
    for (let l = 0; l < 2; l++) {
      const p = `model.layers.${l}`;
      tensors.push(
        { name: `${p}.input_layernorm.weight`, dtype: "F16", shape: [256] },
        { name: `${p}.post_attention_layernorm.weight`, dtype: "F16", shape: [256] },
      );
      const mats = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"];
      mats.forEach((m, k) => {
        const [i, o] = LINEARS[k]!;
        tensors.push(
          { name: `${p}.${m}.qweight`, dtype: "I32", shape: [i, o / 8] },
          { name: `${p}.${m}.qzeros`, dtype: "I32", shape: [i / 128, o / 8] },
          { name: `${p}.${m}.scales`, dtype: "F16", shape: [i / 128, o] },
        );
      });
    }
    const q = { quant_method: "awq", bits: 4, group_size: 128 };
    const e = estimate({ ...tiny, quantization_config: q }, { checkpoint: { tensors } });
    expect(e.checkpoint?.compared_total).toBe(e.params.derived);
    expect(e.params.source).toBe("structure");
    expect(e.warnings.join(" ")).not.toMatch(/reader_mismatch/);
    expect(e.weights.source).toBe("headers");
    expect(e.weights.bytes).toBe(estimate({ ...tiny, quantization_config: q }).weights.bytes);
  });
});

describe("header-first", () => {
  const tensors: TensorHeader[] = [
    { name: "transformer.wte.weight", dtype: "BF16", shape: [1000, 64] },
    { name: "transformer.h.0.mixer.in_proj.weight", dtype: "BF16", shape: [256, 64] },
    { name: "transformer.h.0.mixer.out_proj.weight", dtype: "BF16", shape: [64, 128] },
    { name: "transformer.h.0.norm.weight", dtype: "F32", shape: [64] },
    { name: "transformer.rotary_emb.inv_freq", dtype: "F32", shape: [32] },
  ];

  it("an unknown architecture missing a key is never refused with headers: exact params and weights, a serve verdict", () => {
    const config = { model_type: "brand_new", architectures: ["BrandNewForCausalLM"], vocab_size: 1000 };
    expect(() => estimate(config)).toThrow(/hidden_size/);
    const e = estimate(config, { checkpoint: { tensors } });
    expect(e.params.total).toBe(1000 * 64 + 256 * 64 + 64 * 128 + 64);
    expect(e.params.source).toBe("headers");
    expect(e.reader).toEqual({ family: "none", confidence: "generic" });
    expect(e.weights.bytes).toBe(2 * e.params.total);
    expect(e.weights.stored_bytes).toBe(2 * (e.params.total - 64) + 4 * 64);
    expect(e.checkpoint?.buffers).toEqual([{ name: "transformer.rotary_emb.inv_freq", scalars: 32 }]);
    expect(e.fit.every((r) => r.mode === "serve" && r.text.includes("KV cache unknown"))).toBe(true);
    expect(e.missing?.map((m) => m.figure)).toContain("kv_cache");
    expect(e.missing?.[0]?.why).toMatch(/hidden_size/);
  });

  it("derived and stored counts that disagree give a reader_mismatch with both figures; memory uses the stored ones", () => {
    const qwen3 = cfg("Qwen__Qwen3-0.6B");
    const derived = estimate(qwen3).params.total;
    const extra = { name: "model.layers.0.mlp.extra.weight", dtype: "BF16", shape: [1000, 100] };
    const all: TensorHeader[] = [
      { name: "model.embed_tokens.weight", dtype: "BF16", shape: [derived, 1] },
      extra,
    ];
    const e = estimate(qwen3, { checkpoint: { tensors: all } });
    expect(e.params.total).toBe(derived + 100_000);
    expect(e.params.derived).toBe(derived);
    expect(e.params.source).toBe("headers");
    const w = e.warnings.find((x) => x.startsWith("reader_mismatch"))!;
    expect(w).toContain(derived.toLocaleString("en-US"));
    expect(w).toContain((derived + 100_000).toLocaleString("en-US"));
    expect(e.memory.serve.breakdown.weights).toBe(2 * (derived + 100_000));
  });
});

describe("active parameters", () => {
  it("Qwen3-30B-A3B: the total less the 120 of 128 experts a token skips, per modeling_qwen3_moe.py", () => {
    const c = cfg("Qwen__Qwen3-30B-A3B") as Record<string, number>;
    const e = estimate(c);
    const expert = 3 * c.hidden_size! * c.moe_intermediate_size!; // gate, up, down
    const exact = e.params.total - c.num_hidden_layers! * (c.num_experts! - c.num_experts_per_tok!) * expert;
    expect(Math.abs(e.params.active - exact) / exact).toBeLessThan(0.01);
    expect(e.params.active).toBeLessThan(0.12 * e.params.total);
  });

  it("equals the total for a dense model; leaves out DeepSeek's MTP module", () => {
    const dense = estimate(cfg("Qwen__Qwen3-8B"));
    expect(dense.params.active).toBe(dense.params.total);
    const ds = estimate(cfg("deepseek-ai__DeepSeek-V3"));
    expect(ds.params.active).toBeLessThan(ds.params.total - (ds.params.towers.mtp ?? 0));
    expect(ds.params.active / 1e9).toBeGreaterThan(36);
    expect(ds.params.active / 1e9).toBeLessThan(39);
  });
});
