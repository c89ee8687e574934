import { describe, expect, it } from "vitest";
import { renderWeightMetadata } from "./header-meta-view.ts";
import { renderTokenizerDiff, visibleToken } from "./tokenizer-view.ts";

describe("visibleToken", () => {
  it("spells out whitespace and invisible characters, in quotes", () => {
    expect(visibleToken(" x\n")).toBe(`" x\\n"`);
    expect(visibleToken("\u00a0\u200b\t")).toBe(`"\\u00a0\\u200b\\t"`);
    expect(visibleToken("<|im_end|>")).toBe(`"<|im_end|>"`);
  });
});

describe("renderTokenizerDiff", () => {
  it("lists changed fields and added, removed and changed tokens, escaped", () => {
    const out = String(
      renderTokenizerDiff({
        fields: [{ field: "vocab_size", before: 300, after: 301 }],
        added_tokens: {
          added: [{ id: 301, content: "<b>", special: true }],
          removed: [{ id: 299, content: " ", special: false }],
          changed: [
            {
              id: 300,
              before: { id: 300, content: "a", special: false },
              after: { id: 300, content: "a", special: true },
            },
          ],
        },
      }),
    );
    expect(out).toContain("vocab size");
    expect(out).toContain("&quot;&lt;b&gt;&quot;</code> special");
    expect(out).toContain("<td>removed</td><td>299</td>");
    expect(out).toContain("<td>changed</td><td>300</td>");
    expect(out).not.toContain("<b>");
  });
});

describe("renderWeightMetadata", () => {
  it("shows only the keys whose value changed, escaped; nothing when unchanged", () => {
    const before = [{ path: "model.safetensors", metadata: { format: "pt" } }];
    const after = [{ path: "model.safetensors", metadata: { format: "pt", exporter: "<i>x</i>" } }];
    const out = String(renderWeightMetadata({ before, after }));
    expect(out).toContain("&lt;i&gt;x&lt;/i&gt;");
    expect(out).not.toContain("format");
    expect(String(renderWeightMetadata({ before, after: before }))).toBe("");
    expect(String(renderWeightMetadata(null))).toBe("");
  });
});
