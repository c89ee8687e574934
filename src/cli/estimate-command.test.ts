import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { captureEstimateIo } from "../../test/helpers/estimate-cli.ts";
import { runEstimateCommand } from "./estimate-command.ts";

const FIXTURES = new URL("../../fixtures/models/", import.meta.url).pathname;

const capture = () => captureEstimateIo();

function safetensors(header: object): Buffer {
  const json = Buffer.from(JSON.stringify(header));
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(json.length));
  return Buffer.concat([len, json, Buffer.alloc(16)]);
}

describe("hubwatch estimate", () => {
  it("prints JSON for a fixture folder, using the index's total_size", async () => {
    const c = capture();
    expect(await runEstimateCommand(join(FIXTURES, "microsoft__phi-2"), { json: true }, c.io)).toBe(0);
    const e = JSON.parse(c.out());
    expect(e.params.total).toBe(2_779_683_840);
    expect(e.checkpoint.source).toBe("index_total_size");
    expect(e.checkpoint.delta).toBe(0);
  });

  it("reads safetensors headers and .header.json files from a folder", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hubwatch-est-"));
    const cfg = { model_type: "gpt2", n_embd: 8, n_layer: 1, n_head: 2, n_positions: 16, vocab_size: 10 };
    writeFileSync(join(dir, "config.json"), JSON.stringify(cfg));
    const t = (shape: number[]) => ({ dtype: "F32", shape, data_offsets: [0, 0] });
    writeFileSync(
      join(dir, "model-00001.safetensors"),
      safetensors({
        __metadata__: { format: "pt" },
        "wte.weight": t([10, 8]),
        "wpe.weight": t([16, 8]),
        "h.0.attn.bias": t([1, 1, 16, 16]),
      }),
    );
    const rest: Record<string, object> = {
      "h.0.ln_1.weight": t([8]),
      "h.0.ln_1.bias": t([8]),
      "h.0.attn.c_attn.weight": t([8, 24]),
      "h.0.attn.c_attn.bias": t([24]),
      "h.0.attn.c_proj.weight": t([8, 8]),
      "h.0.attn.c_proj.bias": t([8]),
      "h.0.ln_2.weight": t([8]),
      "h.0.ln_2.bias": t([8]),
      "h.0.mlp.c_fc.weight": t([8, 32]),
      "h.0.mlp.c_fc.bias": t([32]),
      "h.0.mlp.c_proj.weight": t([32, 8]),
      "h.0.mlp.c_proj.bias": t([8]),
      "ln_f.weight": t([8]),
      "ln_f.bias": t([8]),
    };
    writeFileSync(join(dir, "model-00002.safetensors.header.json"), JSON.stringify(rest));
    const c = capture();
    expect(await runEstimateCommand(dir, { json: true }, c.io)).toBe(0);
    const e = JSON.parse(c.out());
    expect(e.checkpoint.buffers).toEqual([{ name: "h.0.attn.bias", scalars: 256 }]);
    expect(e.checkpoint.delta).toBe(0);
    expect(e.checkpoint.dtypes).toEqual({ F32: e.checkpoint.stored_total });
  });

  it("renders Markdown titled by the repo id, the split in layers, the structure folded unless --full", async () => {
    const path = join(FIXTURES, "Qwen__Qwen3-4B-Instruct-2507", "config.json");
    const c = capture();
    expect(await runEstimateCommand(path, { markdown: true }, c.io)).toBe(0);
    expect(c.out()).toMatch(/^# Qwen\/Qwen3-4B-Instruct-2507: /);
    expect(c.out()).toContain(
      "| A100 / H100 80 GB | 2 cards at batch 1 (28 + 8 layers) | batch 6 | batch 101 |",
    );
    expect(c.out()).toContain("| 3–218 | layers 1–36 (×36) |");
    expect(c.out()).not.toContain("| 3 | RMSNorm_1_1 |");
    const f = capture();
    expect(await runEstimateCommand(path, { markdown: true, full: true }, f.io)).toBe(0);
    expect(f.out()).toContain("| 3 | RMSNorm_1_1 | RMSNorm |");
    expect(f.out().split("\n").length).toBeGreaterThan(c.out().split("\n").length + 200);
  });

  it("answers malformed JSON, missing files, bad keys and bad headers with one line and exit 2", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hubwatch-est-"));
    writeFileSync(join(dir, "bad.json"), "{ not json");
    writeFileSync(
      join(dir, "neg.json"),
      JSON.stringify({
        ...JSON.parse(readFileSync(join(FIXTURES, "Qwen__Qwen3-8B/config.json"), "utf8")),
        num_hidden_layers: -1,
      }),
    );
    const big = mkdtempSync(join(tmpdir(), "hubwatch-est-"));
    writeFileSync(join(big, "config.json"), readFileSync(join(FIXTURES, "Qwen__Qwen3-8B/config.json")));
    const huge = Buffer.alloc(16);
    huge.writeBigUInt64LE(10n ** 12n);
    writeFileSync(join(big, "model.safetensors"), huge);
    for (const [path, pattern] of [
      [join(dir, "bad.json"), /malformed JSON/],
      [join(dir, "nope.json"), /no such file/],
      [join(dir, "neg.json"), /num_hidden_layers/],
      [big, /header length/],
    ] as const) {
      const c = capture();
      expect(await runEstimateCommand(path, {}, c.io)).toBe(2);
      expect(c.err()).toMatch(pattern);
      expect(c.err().trim().split("\n")).toHaveLength(1);
      expect(c.err()).not.toMatch(/\n\s+at /);
    }
  });
});
