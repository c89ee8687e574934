import { describe, expect, it } from "vitest";
import { diffJson } from "./json.ts";

describe("diffJson", () => {
  it("reports leaf updates, adds and removes with paths", () => {
    const { changes, changeset } = diffJson(
      { torch_dtype: "float32", rope: { theta: 10000 }, old: 1 },
      { torch_dtype: "bfloat16", rope: { theta: 500000 }, added: true },
    );
    expect(changeset.length).toBeGreaterThan(0);
    expect(changes).toEqual(
      expect.arrayContaining([
        { path: "$.torch_dtype", op: "update", before: "float32", after: "bfloat16" },
        { path: "$.rope.theta", op: "update", before: 10000, after: 500000 },
        { path: "$.old", op: "remove", before: 1 },
        { path: "$.added", op: "add", after: true },
      ]),
    );
    expect(changes).toHaveLength(4);
  });

  it("merges a type change into one update", () => {
    const { changes } = diffJson({ eos_token_id: 128001 }, { eos_token_id: [128001, 128009] });
    expect(changes).toEqual([
      { path: "$.eos_token_id", op: "update", before: 128001, after: [128001, 128009] },
    ]);
  });

  it("keys added_tokens by id so an insertion is a single add", () => {
    const tok = (id: number, content: string) => ({ id, content, special: true });
    const { changes } = diffJson(
      { added_tokens: [tok(0, "<s>"), tok(2, "</s>")] },
      { added_tokens: [tok(0, "<s>"), tok(1, "<pad>"), tok(2, "</s>")] },
    );
    expect(changes).toEqual([{ path: "$.added_tokens[?(@.id=='1')]", op: "add", after: tok(1, "<pad>") }]);
  });

  it("keys a chat_template list by name", () => {
    const { changes } = diffJson(
      {
        chat_template: [
          { name: "default", template: "a" },
          { name: "tool_use", template: "t" },
        ],
      },
      {
        chat_template: [
          { name: "tool_use", template: "t" },
          { name: "default", template: "b" },
        ],
      },
    );
    expect(changes).toEqual([
      { path: "$.chat_template[?(@.name=='default')].template", op: "update", before: "a", after: "b" },
    ]);
  });

  it("handles identical documents and root scalars", () => {
    expect(diffJson({ a: [1, 2] }, { a: [1, 2] }).changes).toEqual([]);
    expect(diffJson(1, 2).changes).toEqual([{ path: "$", op: "update", before: 1, after: 2 }]);
  });
});
