import { describe, expect, it } from "vitest";
import { modelFixture as fixture, readConfig as read } from "../../../../test/helpers/model-fixtures.ts";
import { estimate } from "../estimate.ts";
import { countParams } from "../params.ts";

describe("xlm-roberta and deberta-v2 against published totals", () => {
  for (const dir of ["FacebookAI__xlm-roberta-base", "microsoft__deberta-v3-base__qa"]) {
    it(`${dir}: derived == published`, () => {
      const { config, truth } = fixture(dir);
      expect(estimate(config).params.total).toBe(truth);
    });
  }
});

describe("xlm-roberta", () => {
  const base = fixture("FacebookAI__xlm-roberta-base").config;

  it("is read by its own model_type (not RoBERTa by prefix) and names the position_ids buffer", () => {
    const r = read(base);
    expect(r.family).toBe("xlm-roberta");
    expect(r.warnings).toEqual([]);
    expect(r.storedBuffers).toEqual([
      { suffix: "embeddings.position_ids", count: 1, scalarsEach: 514, dtype: "I64" },
    ]);
    expect(r.tiedEmbedding).toBe(true);
  });

  it("xlm-roberta-xl: pre-norm layers, no embedding LayerNorm, a final encoder LayerNorm", () => {
    const r = read({ ...base, model_type: "xlm-roberta-xl", architectures: ["XLMRobertaXLForMaskedLM"] });
    const names = r.towers[0]!.nodes.map((n) => n.name);
    expect(names.slice(0, 5)).toEqual([
      "Embedding",
      "PosEmbedding",
      "TokenTypeEmbedding",
      "LayerNorm_1_1",
      "Attention_1",
    ]);
    expect(names).toContain("LayerNorm_out");
    // same modules as XLM-R base except the embedding LayerNorm moved to the end of the encoder
    expect(countParams(r).total).toBe(estimate(base).params.total);
  });
});

describe("deberta-v2", () => {
  const qa = fixture("microsoft__deberta-v3-base__qa").config;

  it("v3: no position table, rel_embeddings of 2 x position_buckets rows with a LayerNorm, shared attention keys", () => {
    const nodes = read(qa).towers[0]!.nodes;
    expect(nodes.some((n) => n.name === "PosEmbedding")).toBe(false);
    expect(nodes.find((n) => n.name === "RelEmbeddings")!.params).toBe(512 * 768);
    expect(nodes.find((n) => n.name === "LayerNorm_rel")!.params).toBe(2 * 768);
    expect(nodes.find((n) => n.name === "Attention_1")!.params).toBe(4 * 768 * 768 + 4 * 768);
    expect(nodes.at(-1)).toMatchObject({ name: "QAOutputs", params: 768 * 2 + 2 });
  });

  it("share_att_key false adds pos_key_proj (c2p) and pos_query_proj (p2c) to every layer", () => {
    const shared = estimate(qa).params.total;
    const separate = estimate({ ...qa, share_att_key: false }).params.total;
    expect(separate - shared).toBe(12 * 2 * (768 * 768 + 768));
    const c2pOnly = estimate({ ...qa, share_att_key: false, pos_att_type: "c2p" }).params.total;
    expect(c2pOnly - shared).toBe(12 * (768 * 768 + 768));
  });

  it("embedding_size below hidden adds embed_proj; position_biased_input adds the position table", () => {
    const r = read({ ...qa, embedding_size: 512, position_biased_input: true });
    const nodes = r.towers[0]!.nodes;
    expect(nodes.find((n) => n.name === "Embedding")!.params).toBe(128100 * 512);
    expect(nodes.find((n) => n.name === "PosEmbedding")!.params).toBe(512 * 512);
    expect(nodes.find((n) => n.name === "EmbedProj")!.params).toBe(512 * 768);
    expect(r.storedBuffers?.[0]).toMatchObject({ suffix: "embeddings.position_ids", scalarsEach: 512 });
  });
});

describe("modernbert", () => {
  const config = {
    architectures: ["ModernBertForMaskedLM"],
    model_type: "modernbert",
    hidden_size: 768,
    intermediate_size: 1152,
    num_hidden_layers: 22,
    num_attention_heads: 12,
    vocab_size: 50368,
    max_position_embeddings: 8192,
    global_attn_every_n_layers: 3,
    local_attention: 128,
    norm_bias: false,
  };

  it("layer 0 has no attention norm (nn.Identity); every third layer is global, the rest local", () => {
    const nodes = read(config).towers[0]!.nodes;
    expect(nodes.some((n) => n.name === "LayerNorm_1_1")).toBe(false);
    expect(nodes.some((n) => n.name === "LayerNorm_2_1")).toBe(true);
    const kinds = nodes.filter((n) => n.name.startsWith("Attention_")).map((n) => n.type);
    expect(kinds.slice(0, 4)).toEqual([
      "Global Attn",
      "Local Attn (window 128)",
      "Local Attn (window 128)",
      "Global Attn",
    ]);
    expect(kinds.filter((k) => k === "Global Attn")).toHaveLength(8);
  });

  it("layer_types overrides the every-n pattern", () => {
    const types = Array.from({ length: 22 }, (_, i) => (i % 2 ? "sliding_attention" : "full_attention"));
    const kinds = read({ ...config, layer_types: types }).towers[0]!.nodes.filter((n) =>
      n.name.startsWith("Attention_"),
    );
    expect(kinds.filter((n) => n.type === "Global Attn")).toHaveLength(11);
  });

  it("fused Wqkv and Wi are one LoRA linear each; no biases unless the config turns them on", () => {
    const r = read(config);
    const nodes = r.towers[0]!.nodes;
    expect(nodes.find((n) => n.name === "Attention_1")!.linears).toEqual([
      { in: 768, out: 2304, count: 1 },
      { in: 768, out: 768, count: 1 },
    ]);
    expect(nodes.find((n) => n.name === "FFN_1")!.linears?.[0]).toEqual({ in: 768, out: 2304, count: 1 });
    const withBias = countParams(
      read({ ...config, norm_bias: true, attention_bias: true, mlp_bias: true }),
    ).total;
    const layerNorms = 22 * 2 - 1 + 3; // per-layer norms less layer 0's, embedding, final and head norms
    const biases = 22 * (3 * 768 + 768) + 22 * (2 * 1152 + 768);
    expect(withBias - countParams(r).total).toBe(layerNorms * 768 + biases);
  });

  it("the MLM decoder is tied to tok_embeddings and keeps its own bias; an encoder has no KV cache", () => {
    const r = read(config);
    expect(r.tiedEmbedding).toBe(true);
    expect(r.kvLayers).toEqual([]);
    const tail = r.towers[0]!.nodes.slice(-3);
    expect(tail.map((n) => n.name)).toEqual(["HeadNorm", "LMHead", "DecoderBias"]);
    expect(tail[1]!.tiedTo).toBe("Embedding");
    expect(countParams(read({ ...config, tie_word_embeddings: false })).total - countParams(r).total).toBe(
      50368 * 768,
    );
  });
});
