/**
 * A Mistral-style repo publishes the same weights twice: transformers shards with
 * model.safetensors.index.json, and consolidated.safetensors (plus original/) beside them. The pipeline
 * follows the index: the other sets stay in the manifest, their headers are never read, and the stored
 * total equals the one of the same model without them.
 */
import { afterEach, describe, expect, it } from "vitest";
import { json, weights } from "../../src/replay-hub/fixtures/builder.ts";
import type { RepoSpec } from "../../src/replay-hub/index.ts";
import { expectAllDone, type Pipeline, startPipeline, storeInvariants } from "./harness.ts";

let p: Pipeline | undefined;
afterEach(async () => {
  await p?.close();
  p = undefined;
});

const CONFIG = {
  architectures: ["MistralForCausalLM"],
  model_type: "mistral",
  hidden_size: 256,
  intermediate_size: 768,
  num_attention_heads: 4,
  num_key_value_heads: 2,
  head_dim: 64,
  num_hidden_layers: 4,
  max_position_embeddings: 4096,
  vocab_size: 1024,
  tie_word_embeddings: false,
  torch_dtype: "bfloat16",
};

const at = (h: number) => new Date(Date.UTC(2025, 4, 1, h)).toISOString();

function repo(id: string, alternates: boolean): RepoSpec {
  const single = weights(CONFIG)["model.safetensors"]!;
  const upload = { "config.json": json(CONFIG), ...weights(CONFIG, { shards: 2 }) };
  const extra = { "consolidated.safetensors": single, "original/model.safetensors": single };
  return {
    id,
    commits: [
      { title: "initial commit", date: at(0), changes: { "README.md": json({}) } },
      { title: "Upload model", date: at(1), changes: upload },
      ...(alternates ? [{ title: "Add consolidated weights", date: at(2), changes: extra }] : []),
    ],
  };
}

async function headEstimate(pipeline: Pipeline, name: string): Promise<number> {
  const { rows } = await pipeline.sql.query(
    `select e.params_total from estimates e join revisions r on r.id = e.revision_id join repos o on o.id = r.repo_id
     where o.name = $1 order by r.seq desc limit 1`,
    [name],
  );
  return Number(rows[0].params_total);
}

describe("weight sets beside the index", () => {
  it("consolidated.safetensors and original/ beside HF shards: total unchanged, their headers never read", async () => {
    p = await startPipeline({
      repos: [repo("mistral-like/with-consolidated", true), repo("hf-only/shards", false)],
    });
    await p.cycle();
    for (const name of ["mistral-like/with-consolidated", "hf-only/shards"]) await expectAllDone(p, name);
    const total = await headEstimate(p, "mistral-like/with-consolidated");
    expect(total).toBeGreaterThan(0);
    expect(total).toBe(await headEstimate(p, "hf-only/shards"));
    const alternateReads = p.hub.requestLog.filter((e) =>
      /\/(consolidated|original\/model)\.safetensors/.test(e.path),
    );
    expect(alternateReads).toEqual([]);
    // Adding the other set is not a weights change; the files are in the manifest.
    const { rows } = await p.sql.query(
      `select c.path from changes c join revisions r on r.id = c.revision_id where r.title = 'Add consolidated weights' and c.category = 'weights'`,
    );
    expect(rows).toEqual([]);
    const manifest = await p.sql.query(
      `select f.path, f.artifact_hash from revision_files f join revisions r on r.id = f.revision_id
       where r.title = 'Add consolidated weights' and f.path like '%.safetensors' order by f.path`,
    );
    expect(manifest.rows.map((r) => [r.path, r.artifact_hash === null])).toEqual([
      ["consolidated.safetensors", true],
      ["model-00001-of-00002.safetensors", false],
      ["model-00002-of-00002.safetensors", false],
      ["original/model.safetensors", true],
    ]);
    expect(p.runner.failures).toEqual([]);
    expect(await storeInvariants(p)).toEqual([]);
  });
});
