// The GGUF writer's files as @huggingface/gguf reads them (local and by Range from the replay hub), and
// the estimate of their headers: exact parameters and weight bytes, counted here by hand.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readLocalGguf } from "../../src/cli/estimate-gguf.ts";
import { estimateGgufFile } from "../../src/core/estimator/gguf/file-estimate.ts";
import { createRequestCounter, HubBadDataError, readGgufHeader } from "../../src/hub/index.ts";
import { GGUF_REPO, ggufRepo } from "../../src/replay-hub/fixtures/repos-kinds.ts";
import { encodeGguf, llamaGguf, TINY_LLAMA, writeGguf } from "../helpers/gguf.ts";
import { useReplayHub } from "../helpers/replay-hub.ts";

const hub = useReplayHub((h) => h.addRepo(ggufRepo()));
const dir = await mkdtemp(join(tmpdir(), "hubwatch-gguf-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

// Q4_K_M of TINY_LLAMA, per tensor (rows x bytes per row; Q4_K 144 bytes and Q6_K 210 bytes per 256 weights):
// token_embd 1024 x 144; layer 0 (llama.cpp's use_more_bits: attn_v and ffn_down at Q6_K): norms 2 x 1024,
// q 256 x 144, k 128 x 144, v 128 x 210, o 256 x 144, gate and up 512 x 144 each, down 256 x 2 x 210;
// layer 1: the same at Q4_K but v 128 x 144 and down 256 x 2 x 144; output_norm 1024; output 1024 x 210.
const LAYER0 = 2 * 1024 + 256 * 144 + 128 * 144 + 128 * 210 + 256 * 144 + 2 * 512 * 144 + 256 * 2 * 210;
const LAYER1 = 2 * 1024 + 256 * 144 + 128 * 144 + 128 * 144 + 256 * 144 + 2 * 512 * 144 + 256 * 2 * 144;
const TINY_Q4KM_BYTES = 1024 * 144 + LAYER0 + LAYER1 + 1024 + 1024 * 210;
// 2 x (norm 256 + q 256x256 + k 128x256 + v 128x256 + o 256x256 + norm 256 + 3 x 512x256) + embed + output + norm.
const TINY_PARAMS = 2 * (256 + 65536 + 32768 + 32768 + 65536 + 256 + 3 * 131072) + 2 * 262144 + 256;

describe("GGUF headers", () => {
  it("a generated file reads back with every tensor and key, and estimates exactly", async () => {
    const enc = llamaGguf(TINY_LLAMA, { name: "tiny", scheme: "Q4_K_M", chatTemplate: "{{ bos_token }}" });
    const path = join(dir, "tiny-Q4_K_M.gguf");
    await writeGguf(path, enc);
    const h = await readLocalGguf(path);
    expect(h.version).toBe(3);
    expect(h.tensors).toHaveLength(1 + 2 * 9 + 2);
    expect(h.tensors[0]).toEqual({ name: "token_embd.weight", shape: [256, 1024], type: "Q4_K" });
    expect(h.metadata["llama.block_count"]).toBe(2);
    expect(h.metadata["tokenizer.chat_template"]).toBe("{{ bos_token }}");
    expect(h.metadata["tokenizer.ggml.tokens"]).toMatchObject({ array_length: 1024 });
    expect(h.header_bytes).toBe(enc.header.length);
    expect(h.file_size).toBe(enc.size);
    const e = estimateGgufFile("tiny-Q4_K_M.gguf", [h]);
    expect(e.quant).toBe("Q4_K_M");
    expect(e.params).toBe(TINY_PARAMS);
    expect(e.weight_bytes).toBe(TINY_Q4KM_BYTES);
    expect(enc.size - enc.header.length).toBeGreaterThanOrEqual(TINY_Q4KM_BYTES);
    // 2 layers x 2 KV heads x (64 + 64) x 2 bytes, at min(2048 context, 4096) tokens.
    expect(e.kv_bytes_per_token).toBe(1024);
    expect(e.kv_cache).toEqual({ tokens: 2048, bytes: 2048 * 1024 });
  });

  it("every scheme's bytes follow ggml's block sizes (F16, Q8_0, IQ4_XS)", async () => {
    const weights2d = TINY_PARAMS - 5 * 256;
    const norms = 5 * 256 * 4;
    for (const [scheme, bytes] of [
      ["F16", weights2d * 2 + norms],
      ["Q8_0", (weights2d / 32) * 34 + norms],
      // IQ4_XS 136 bytes per 256, output at Q6_K.
      ["IQ4_XS", ((weights2d - 262144) / 256) * 136 + (262144 / 256) * 210 + norms],
    ] as const) {
      const path = join(dir, `tiny-${scheme}.gguf`);
      await writeGguf(path, llamaGguf(TINY_LLAMA, { name: "tiny", scheme }));
      expect(estimateGgufFile(path, [await readLocalGguf(path)]).weight_bytes, scheme).toBe(bytes);
    }
  });

  it("reads a Hub file by Range requests of the header only, never the tensor data", async () => {
    const counter = createRequestCounter();
    const path = "Meta-Llama-3.1-8B-Instruct-Q8_0.gguf";
    const h = await readGgufHeader({ hubUrl: hub.url, repo: GGUF_REPO, sha: "main", path, counter });
    expect(h.tokens).toEqual({ bos: "<|begin_of_text|>", eos: "<|eot_id|>" });
    const e = estimateGgufFile(path, [h]);
    // Meta-Llama-3.1-8B's 8,030,261,248 parameters plus llama.cpp's rope_freqs (64 scalars).
    expect(e.params).toBe(8_030_261_248 + 64);
    expect(e.quant).toBe("Q8_0");
    const reads = hub.requestLog.filter((l) => l.route === "resolve");
    expect(reads.length).toBeGreaterThan(0);
    for (const l of reads) expect(l.range).toMatch(/^bytes=\d+-\d+$/);
    expect(counter.bytesReceived).toBeLessThan(h.header_bytes + 4_000_000);
    expect(h.file_size).toBeGreaterThan(8_000_000_000);
  });

  it("a file that is not GGUF is bad upstream data, not a retry", async () => {
    const bad = { ...ggufRepo(), id: "hubwatch-fixtures/not-gguf" };
    bad.commits = [
      {
        title: "upload",
        date: "2024-01-01T00:00:00Z",
        changes: { "x.gguf": { kind: "text", text: "not a gguf file at all" } },
      },
    ];
    hub.addRepo(bad);
    const err = await readGgufHeader({ hubUrl: hub.url, repo: bad.id, sha: "main", path: "x.gguf" }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(HubBadDataError);
    expect((err as HubBadDataError).code).toBe("BadGgufHeader");
  });

  it("the writer refuses a row that is not a whole number of blocks", () => {
    expect(() => encodeGguf({}, [{ name: "w", shape: [100, 4], type: 12 }])).toThrow(/whole number/);
  });
});
