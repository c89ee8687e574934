// `hubwatch estimate OWNER/NAME` on a diffusers pipeline repo and on a local pipeline folder: per component.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diffusersHeader } from "../../src/replay-hub/diffusers-gen.ts";
import { DIFFUSERS_REPO, diffusersRepo } from "../../src/replay-hub/fixtures/repos-diffusers.ts";
import { estimateCli } from "../helpers/estimate-cli.ts";
import { useReplayHub } from "../helpers/replay-hub.ts";

const hub = useReplayHub((h) => h.addRepo(diffusersRepo()));
const dir = await mkdtemp(join(tmpdir(), "hubwatch-est-diffusers-"));
afterAll(() => rm(dir, { recursive: true, force: true }));
const SD = new URL("../../fixtures/pipelines/stable-diffusion-v1-5__stable-diffusion-v1-5/", import.meta.url);

const run = estimateCli(() => hub.url);

describe("hubwatch estimate on a diffusers pipeline", () => {
  it("OWNER/NAME: model_index.json, component configs and one header set per component, by range", async () => {
    const r = await run(DIFFUSERS_REPO, { json: true });
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const e = JSON.parse(r.out);
    const params = Object.fromEntries(
      e.diffusers.components.map((c: { name: string; params: number }) => [c.name, c.params]),
    );
    // The head revision: TAESD as the VAE, no safety checker.
    expect(params).toEqual({
      feature_extractor: 0,
      scheduler: 0,
      text_encoder: 123_060_480,
      tokenizer: 0,
      unet: 859_520_964,
      vae: 2_445_063,
    });
    const reads = hub.requestLog.filter((l) => l.route === "resolve");
    for (const l of reads) expect(l.bytes).toBeLessThanOrEqual(2_000_000);
    const md = await run(DIFFUSERS_REPO, { markdown: true });
    expect(md.out).toMatch(
      /^\| unet \| diffusers\.UNet2DConditionModel \| 859520964 \| headers \| 1\.72 GB \|$/m,
    );
  });

  it("a local folder: a header-less CLIP text encoder counted from its config, a header-less UNet unknown", async () => {
    const folder = join(dir, "pipe");
    for (const sub of ["unet", "vae", "text_encoder"]) await mkdir(join(folder, sub), { recursive: true });
    const index = JSON.parse(await readFile(new URL("model_index.json", SD), "utf8"));
    await writeFile(
      join(folder, "model_index.json"),
      JSON.stringify({ ...index, safety_checker: [null, null] }),
    );
    for (const sub of ["unet", "vae", "text_encoder"])
      await writeFile(join(folder, sub, "config.json"), await readFile(new URL(`${sub}/config.json`, SD)));
    const header = Buffer.from(
      JSON.stringify(diffusersHeader([{ name: "quant_conv.bias", shape: [8] }], "F16")),
    );
    const len = Buffer.alloc(8);
    len.writeBigUInt64LE(BigInt(header.length));
    await writeFile(
      join(folder, "vae", "diffusion_pytorch_model.fp16.safetensors"),
      Buffer.concat([len, header]),
    );
    const r = await run(folder);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/text_encoder +transformers\.CLIPTextModel +123M \(123060480\) +config/);
    expect(r.out).toMatch(/unet +diffusers\.UNet2DConditionModel +unknown +unknown/);
    expect(r.out).toMatch(/vae +diffusers\.AutoencoderKL +8 \(8\) +headers/);
    expect(r.out).toMatch(/warning: unet \(diffusers\.UNet2DConditionModel\): no safetensors header read/);
  });
});
