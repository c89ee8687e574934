import { describe, expect, it } from "vitest";
import {
  modelFixture as fixture,
  type RawConfig,
  readConfig as read,
} from "../../../../test/helpers/model-fixtures.ts";
import { estimate } from "../estimate.ts";
import type { ModelReading, StructureNode } from "../types.ts";

const biased = (nodes: StructureNode[]) =>
  nodes.filter((n) => n.type.includes("relative bias")).map((n) => n.name);
const tower = (r: ModelReading, name: string) => r.towers.find((t) => t.name === name)!;

describe("t5 / mt5 / umt5 against published totals", () => {
  for (const dir of ["google-t5__t5-small", "google__flan-t5-large"]) {
    it(`${dir}: derived == published`, () => {
      const { config, truth } = fixture(dir);
      expect(estimate(config).params.total).toBe(truth);
    });
  }
});

describe("t5 structure", () => {
  const small = fixture("google-t5__t5-small").config;
  const flan = fixture("google__flan-t5-large").config;

  it("T5 keeps the relative bias in block 0 of each stack; the cross-attention has none", () => {
    const r = read(small);
    expect(biased(tower(r, "encoder").nodes)).toEqual(["encoder.Attention_1"]);
    expect(biased(tower(r, "decoder").nodes)).toEqual(["decoder.SelfAttention_1"]);
    const a1 = tower(r, "encoder").nodes.find((n) => n.name === "encoder.Attention_1")!;
    const a2 = tower(r, "encoder").nodes.find((n) => n.name === "encoder.Attention_2")!;
    expect(a1.params - a2.params).toBe(32 * 8);
  });

  it("umT5 gives every self-attention layer its own bias table, encoder and decoder", () => {
    const r = read({ ...flan, model_type: "umt5" });
    expect(biased(tower(r, "encoder").nodes)).toHaveLength(24);
    expect(biased(tower(r, "decoder").nodes)).toHaveLength(24);
    expect(tower(r, "decoder").nodes.filter((n) => n.type === "Cross Attn")).toHaveLength(24);
    expect(r.family).toBe("umt5");
    expect(r.storedBuffers).toEqual([]);
  });

  it("KV: one self-attention and one cross-attention cache per decoder layer over the encoder positions", () => {
    const r = read(flan);
    expect(r.kvLayers.filter((k) => k.kind === "full")).toHaveLength(24);
    expect(r.kvLayers.filter((k) => k.kind === "cross")).toHaveLength(24);
    expect(r.kvLayers.find((k) => k.kind === "cross")).toEqual({
      kind: "cross",
      bytesPerToken: 0,
      fixedBytes: 2 * 16 * 64 * 2 * 512,
    });
  });

  it("tie_word_embeddings decides the head: t5-small's is tied (default), Flan-T5's is its own matrix", () => {
    const tied = read(small);
    const untied = read(flan);
    expect(tied.tiedEmbedding).toBe(true);
    expect(tower(tied, "decoder").nodes.at(-1)).toMatchObject({
      name: "decoder.LMHead",
      tiedTo: "encoder.Embedding",
    });
    expect(untied.tiedEmbedding).toBe(false);
    expect(tower(untied, "decoder").nodes.at(-1)!.tiedTo).toBeUndefined();
    expect(estimate({ ...flan, tie_word_embeddings: true }).params.total).toBe(
      estimate(flan).params.total - 32128 * 1024,
    );
  });

  it("gated-gelu (v1.1) has wi_0, wi_1, wo; relu has wi, wo", () => {
    const gated = tower(read(flan), "encoder").nodes.find((n) => n.name === "encoder.FFN_1")!;
    const relu = tower(read(small), "encoder").nodes.find((n) => n.name === "encoder.FFN_1")!;
    expect(gated).toMatchObject({ type: "Gated gelu MLP", params: 3 * 1024 * 2816 });
    expect(relu).toMatchObject({ type: "relu MLP", params: 2 * 512 * 2048 });
  });

  it("mT5's config class makes gated-gelu and an untied head the defaults", () => {
    const { feed_forward_proj: _f, tie_word_embeddings: _t, ...bare } = flan;
    const r = read({ ...bare, model_type: "mt5" } as RawConfig);
    expect(r.tiedEmbedding).toBe(false);
    expect(tower(r, "encoder").nodes.find((n) => n.name === "encoder.FFN_1")!.type).toBe("Gated gelu MLP");
  });

  it("T5EncoderModel is the encoder stack alone, with no cache; old checkpoints' cross bias table is named", () => {
    const r = read({ ...flan, architectures: ["T5EncoderModel"] });
    expect(r.towers.map((t) => [t.name, t.role])).toEqual([["encoder", "encoder"]]);
    expect(r.kvLayers).toEqual([]);
    expect(r.lmHead).toBeNull();
    expect(read(small).storedBuffers).toEqual([
      {
        suffix: "decoder.block.0.layer.1.EncDecAttention.relative_attention_bias.weight",
        count: 1,
        scalarsEach: 256,
        dtype: "F32",
      },
    ]);
  });

  it("T5ForSequenceClassification puts dense + out_proj after the decoder and drops the LM head", () => {
    const r = read({ ...small, architectures: ["T5ForSequenceClassification"], num_labels: 3 });
    expect(r.lmHead).toBeNull();
    expect(
      tower(r, "decoder")
        .nodes.slice(-2)
        .map((n) => [n.name, n.params]),
    ).toEqual([
      ["decoder.ClassifierDense", 512 * 512 + 512],
      ["decoder.Classifier", 512 * 3 + 3],
    ]);
  });

  it("a bad feed_forward_proj names the key", () => {
    expect(() => read({ ...small, feed_forward_proj: "gelu-gated" })).toThrow(/feed_forward_proj/);
  });
});
