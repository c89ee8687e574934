// `hubwatch estimate FILE.gguf` and `hubwatch estimate OWNER/NAME` on a GGUF repo: one estimate per quant file.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { GGUF_REPO, ggufRepo } from "../../src/replay-hub/fixtures/repos-kinds.ts";
import { estimateCli } from "../helpers/estimate-cli.ts";
import { llamaGguf, TINY_LLAMA, writeGguf } from "../helpers/gguf.ts";
import { useReplayHub } from "../helpers/replay-hub.ts";

const hub = useReplayHub((h) => h.addRepo(ggufRepo()));
const dir = await mkdtemp(join(tmpdir(), "hubwatch-est-gguf-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

const run = estimateCli(() => hub.url);

describe("hubwatch estimate on GGUF", () => {
  it("FILE.gguf: exact parameters and weight bytes, KV per token, a serve row per card", async () => {
    const path = join(dir, "tiny-Q8_0.gguf");
    await writeGguf(path, llamaGguf(TINY_LLAMA, { name: "tiny", scheme: "Q8_0" }));
    const r = await run(path, { json: true });
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const e = JSON.parse(r.out);
    const [f] = e.gguf.files;
    // 1,705,216 parameters: 1,703,936 in matrices at Q8_0 (34 bytes per 32) and 5 norms of 256 at F32.
    expect(f.params).toBe(1_705_216);
    expect(f.weight_bytes).toBe((1_703_936 / 32) * 34 + 5 * 256 * 4);
    expect(f.kv_bytes_per_token).toBe(1024);
    expect(e.params.total).toBe(1_705_216);
    expect(e.fit.map((row: { mode: string }) => row.mode)).toEqual(Array(5).fill("serve Q8_0"));
    const text = await run(path);
    expect(text.out).toMatch(/tiny-Q8_0\.gguf: Q8_0, .* parameters \(1705216\), weights 1815552 bytes/);
  });

  it("a folder of quant files gets one column per quant; a file that is not GGUF exits 2", async () => {
    const folder = await mkdtemp(join(dir, "repo-"));
    for (const scheme of ["Q4_K_M", "F16"] as const)
      await writeGguf(join(folder, `tiny-${scheme}.gguf`), llamaGguf(TINY_LLAMA, { name: "tiny", scheme }));
    const md = await run(folder, { markdown: true });
    expect(md.code).toBe(0);
    expect(md.out).toMatch(/^\| Card \| F16 \| Q4_K_M \|$/m);
    await writeFile(join(dir, "broken.gguf"), "not gguf");
    const bad = await run(join(dir, "broken.gguf"));
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/not a readable GGUF file/);
  });

  it("OWNER/NAME on a GGUF repo reads every quant file's header by range", async () => {
    const r = await run(GGUF_REPO, { json: true });
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const e = JSON.parse(r.out);
    expect(e.gguf.files.map((f: { quant: string }) => f.quant)).toEqual(["IQ4_XS", "Q4_K_M", "Q8_0"]);
    for (const f of e.gguf.files) expect(f.params).toBe(8_030_261_312);
    // The headline is the largest file; one serve row per (card, quant).
    expect(e.quantization.method).toBe("gguf Q8_0");
    expect(e.fit).toHaveLength(15);
    const reads = hub.requestLog.filter((l) => l.route === "resolve");
    for (const l of reads) expect(l.bytes).toBeLessThanOrEqual(2_000_000);
  });
});
