import { describe, expect, it } from "vitest";
import { readSentenceTransformers } from "./sentence-transformers.ts";

const MODULES = [
  { idx: 0, name: "0", path: "", type: "sentence_transformers.models.Transformer" },
  { idx: 1, name: "1", path: "1_Pooling", type: "sentence_transformers.models.Pooling" },
  { idx: 2, name: "2", path: "2_Dense", type: "sentence_transformers.models.Dense" },
  { idx: 3, name: "3", path: "3_Normalize", type: "sentence_transformers.models.Normalize" },
];

describe("sentence-transformers modules", () => {
  it("pooling mode, Dense parameters and output dimension, normalisation, max sequence length", () => {
    const files: Record<string, unknown> = {
      "1_Pooling/config.json": { word_embedding_dimension: 768, pooling_mode_cls_token: true },
      "2_Dense/config.json": { in_features: 768, out_features: 256, bias: true },
      "sentence_bert_config.json": { max_seq_length: 512 },
    };
    expect(readSentenceTransformers(MODULES, (p) => files[p])).toEqual({
      modules: MODULES.map((m) => ({ path: m.path, type: m.type })),
      pooling: "cls",
      normalize: true,
      dimension: 256,
      max_seq_length: 512,
      dense_params: 768 * 256 + 256,
    });
  });

  it("without Dense the dimension is the pooling's; mean pooling; no Normalize", () => {
    const files: Record<string, unknown> = {
      "1_Pooling/config.json": { word_embedding_dimension: 384, pooling_mode_mean_tokens: true },
    };
    const st = readSentenceTransformers(MODULES.slice(0, 2), (p) => files[p])!;
    expect([st.pooling, st.dimension, st.normalize, st.dense_params, st.max_seq_length]).toEqual([
      "mean",
      384,
      false,
      0,
      null,
    ]);
    expect(readSentenceTransformers({ not: "a list" }, () => undefined)).toBeNull();
  });
});
