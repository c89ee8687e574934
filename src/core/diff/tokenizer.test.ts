import { describe, expect, it } from "vitest";
import { diffTokenizerSummary, summarizeTokenizer } from "./tokenizer.ts";

function addedToken(id: number, content: string, special: boolean) {
  return { id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special };
}

/** A Qwen-like byte-level BPE tokenizer.json with `vocabSize` entries and as many merges. */
function bpeTokenizer(vocabSize: number, extra: Record<string, unknown> = {}): string {
  const vocab: Record<string, number> = {};
  const merges: string[] = [];
  for (let i = 0; i < vocabSize; i++) {
    vocab[`tok${i}ĠabcdefghijklmnopqrSTU`] = i;
    merges.push(`tok${i} Ġabcdefghijklmnop${i}`);
  }
  return JSON.stringify({
    version: "1.0",
    added_tokens: [
      addedToken(vocabSize + 1, "<|im_start|>", true),
      addedToken(vocabSize, "<|endoftext|>", true),
      addedToken(vocabSize + 2, "<think>", false),
    ],
    normalizer: { type: "NFC" },
    pre_tokenizer: {
      type: "Sequence",
      pretokenizers: [{ type: "Split", pattern: { Regex: "x" } }, { type: "ByteLevel" }],
    },
    model: { type: "BPE", dropout: null, vocab, merges },
    ...extra,
  });
}

describe("summarizeTokenizer", () => {
  it("summarizes a BPE tokenizer", () => {
    const s = summarizeTokenizer(bpeTokenizer(1000));
    expect(s).toEqual({
      model_type: "BPE",
      vocab_size: 1003,
      added_tokens: [
        { id: 1000, content: "<|endoftext|>", special: true },
        { id: 1001, content: "<|im_start|>", special: true },
        { id: 1002, content: "<think>", special: false },
      ],
      special_tokens_count: 2,
      normalizer: "NFC",
      pre_tokenizer: "Sequence[Split, ByteLevel]",
      merges_count: 1000,
    });
  });

  it("reads Unigram vocabularies, nested normalizer chains and missing parts", () => {
    const text = JSON.stringify({
      added_tokens: [addedToken(0, "<pad>", true)],
      normalizer: { type: "Sequence", normalizers: [{ type: "Prepend" }, { type: "Replace" }] },
      pre_tokenizer: null,
      model: {
        type: "Unigram",
        vocab: [
          ["<pad>", 0],
          ["▁a", -1.5],
          ["b", -2],
        ],
      },
    });
    const s = summarizeTokenizer(text);
    expect(s.model_type).toBe("Unigram");
    expect(s.vocab_size).toBe(3);
    expect(s.normalizer).toBe("Sequence[Prepend, Replace]");
    expect(s.pre_tokenizer).toBe("none");
    expect(s.merges_count).toBe(0);
  });

  it("summarizes a ~10 MB tokenizer.json quickly", () => {
    const text = bpeTokenizer(150_000);
    expect(text.length).toBeGreaterThan(10_000_000);
    const t0 = performance.now();
    const s = summarizeTokenizer(text);
    const ms = performance.now() - t0;
    expect(s.vocab_size).toBe(150_003);
    expect(s.merges_count).toBe(150_000);
    // ~0.3 s unloaded; loose because test machines are shared.
    expect(ms).toBeLessThan(8000);
  });
});

describe("diffTokenizerSummary", () => {
  it("reports nothing for equal summaries", () => {
    const s = summarizeTokenizer(bpeTokenizer(10));
    expect(diffTokenizerSummary(s, s)).toEqual({
      changed: false,
      fields: [],
      added_tokens: { added: [], removed: [], changed: [] },
    });
  });

  it("reports field changes and added/removed/changed tokens by id", () => {
    const a = summarizeTokenizer(bpeTokenizer(10));
    const b = summarizeTokenizer(
      bpeTokenizer(10, {
        normalizer: null,
        added_tokens: [
          addedToken(10, "<|endoftext|>", true),
          addedToken(11, "<|im_start|>", false),
          addedToken(13, "<tool_call>", true),
        ],
      }),
    );
    const d = diffTokenizerSummary(a, b);
    expect(d.changed).toBe(true);
    expect(d.fields).toEqual([{ field: "normalizer", before: "NFC", after: "none" }]);
    expect(d.added_tokens.added).toEqual([{ id: 13, content: "<tool_call>", special: true }]);
    expect(d.added_tokens.removed).toEqual([{ id: 12, content: "<think>", special: false }]);
    expect(d.added_tokens.changed).toEqual([
      {
        id: 11,
        before: { id: 11, content: "<|im_start|>", special: true },
        after: { id: 11, content: "<|im_start|>", special: false },
      },
    ]);
  });
});
