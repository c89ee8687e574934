import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobRegistry } from "../../jobs/index.ts";
import type { DiffusersEstimate } from "../../src/core/estimator/diffusers.ts";
import { createApp } from "../../src/http/app.ts";
import type { InProcessRunner } from "../../src/queue/in-process-runner.ts";
import { DIFFUSERS_REPO, diffusersRepo } from "../../src/replay-hub/fixtures/repos-diffusers.ts";
import type { ReplayHub } from "../../src/replay-hub/index.ts";
import { listAdvisoriesByRepo } from "../../src/repositories/advisories-read.repository.ts";
import { getManifest } from "../../src/repositories/revision-files.repository.ts";
import type { PipelineServices } from "../../src/services/deps.ts";
import type { TestDatabase } from "../helpers/db.ts";
import { closeProcessed, processedRepo, revisionRows } from "./harness.ts";

// A diffusers pipeline through the pipeline: model_index.json followed to each component's config and weight
// headers, the estimate per component and in total, a component swap as a change of its own, the advisory on the
// parameter count, the page.
describe("a diffusers pipeline repo through the pipeline", () => {
  let hub: ReplayHub;
  let store: TestDatabase;
  let s: PipelineServices;
  let runner: InProcessRunner<JobRegistry>;

  beforeAll(async () => {
    ({ hub, store, s, runner } = await processedRepo(diffusersRepo(), DIFFUSERS_REPO));
  }, 120_000);

  afterAll(() => closeProcessed({ runner, store, hub }));

  async function rows(i: number) {
    const { repo, revision, sha, status, changes, estimate } = await revisionRows(s, DIFFUSERS_REPO, i);
    const manifest = await getManifest(s.db, revision.id);
    return { repo, sha, status, changes, e: estimate as DiffusersEstimate, manifest };
  }

  const read = (manifest: { path: string; artifactHash: string | null }[]) =>
    manifest.filter((m) => m.artifactHash !== null && m.path.endsWith(".safetensors")).map((m) => m.path);
  const component = (e: DiffusersEstimate, name: string) =>
    e.diffusers.components.find((c) => c.name === name);

  it("the upload: component configs tracked, the fp16 headers read, the estimate per component and in total", async () => {
    expect(runner.failures).toEqual([]);
    const up = await rows(1);
    expect(up.status).toBe("done");
    expect(up.changes.map((c) => c[0])).toEqual([
      "*.safetensors",
      "model_index.json",
      "safety_checker/config.json",
      "scheduler/scheduler_config.json",
      "text_encoder/config.json",
      "unet/config.json",
      "vae/config.json",
    ]);
    // One weight set per component: the fp16 variant every component ships; the float32 files stay unread.
    expect(read(up.manifest)).toEqual([
      "safety_checker/model.fp16.safetensors",
      "text_encoder/model.fp16.safetensors",
      "unet/diffusion_pytorch_model.fp16.safetensors",
      "vae/diffusion_pytorch_model.fp16.safetensors",
    ]);
    // Headers by range only: no float32 default file requested, no read over 2 MB (weights are 0.2-1.7 GB).
    const weightReads = hub.requestLog.filter((l) => l.path.includes(".safetensors"));
    expect(weightReads.some((l) => l.path.includes("unet/diffusion_pytorch_model.fp16.safetensors"))).toBe(
      true,
    );
    expect(weightReads.every((l) => l.range !== undefined && l.bytes <= 2_000_000)).toBe(true);
    expect(
      weightReads.some(
        (l) => /\/(diffusion_pytorch_model|model)\.safetensors/.test(l.path) && !l.path.includes("vae/"),
      ),
    ).toBe(false);
    expect(up.e.family).toBe("diffusers");
    expect(up.e.diffusers.variant).toBe("fp16");
    expect(up.e.diffusers.dtype).toBe("F16");
    // Published counts (fixtures/pipelines/SOURCES.md): UNet, VAE, CLIP text encoder; the safety checker's is derived.
    expect(component(up.e, "unet")).toMatchObject({
      class: "UNet2DConditionModel",
      params: 859_520_964,
      source: "headers",
    });
    expect(component(up.e, "vae")).toMatchObject({ class: "AutoencoderKL", params: 83_653_863 });
    // position_ids (an I64 buffer in the header) is not a parameter.
    expect(component(up.e, "text_encoder")).toMatchObject({ class: "CLIPTextModel", params: 123_060_480 });
    expect(component(up.e, "safety_checker")?.params).toBe(303_981_588);
    expect(component(up.e, "scheduler")).toMatchObject({ class: "PNDMScheduler", params: 0, source: "none" });
    expect(up.e.params.total).toBe(859_520_964 + 83_653_863 + 123_060_480 + 303_981_588);
    // Served at the pipeline's fp16: 2 bytes per parameter; 2.74 GB fits every card.
    expect(up.e.memory.serve.bytes).toBe(2 * up.e.params.total);
    expect(up.e.fit.every((f) => f.mode === "serve" && f.verdict === "fits")).toBe(true);
  });

  it("the VAE swapped for TAESD: a component_swap change, parameters down, an advisory", async () => {
    const swap = await rows(2);
    expect(swap.changes).toContainEqual([
      "component:vae",
      "config",
      "modified",
      "component vae swapped: diffusers.AutoencoderKL -> diffusers.AutoencoderTiny",
    ]);
    // TAESD ships float32 only: its default file is read, served at 2 bytes per parameter.
    expect(read(swap.manifest)).toContain("vae/diffusion_pytorch_model.safetensors");
    expect(component(swap.e, "vae")).toMatchObject({ class: "AutoencoderTiny", params: 2_445_063 });
    expect(component(swap.e, "vae")?.serve_bytes).toBe(2 * 2_445_063);
    const up = await rows(1);
    expect(up.e.params.total - swap.e.params.total).toBe(83_653_863 - 2_445_063);
    const advisories = await listAdvisoriesByRepo(s.db, swap.repo.id);
    expect(advisories.map((a) => a.introducedSha)).toContain(swap.sha);
  });

  it("the safety checker dropped: a removed component, and the page shows the component table", async () => {
    const drop = await rows(3);
    expect(drop.changes).toContainEqual([
      "component:safety_checker",
      "config",
      "removed",
      "component safety_checker removed (was stable_diffusion.StableDiffusionSafetyChecker)",
    ]);
    expect(component(drop.e, "safety_checker")).toBeUndefined();
    expect(drop.e.params.total).toBe(859_520_964 + 2_445_063 + 123_060_480);
    const app = await createApp({ db: s.db });
    try {
      const page = await app.inject({ method: "GET", url: `/repos/${DIFFUSERS_REPO}/revisions/${drop.sha}` });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain("component safety_checker removed");
      expect(page.body).toContain("UNet2DConditionModel");
      expect(page.body).toContain("859,520,964");
    } finally {
      await app.close();
    }
  });
});
