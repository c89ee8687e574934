// Real published AWQ / GPTQ checkpoints (fixtures with stored_weight_bytes): the weight bytes counted from
// config.json alone (structure + quantization_config, weights.ts) against the bytes their sources publish.
// A tensor-byte figure (a sum over a published tensor list, an index total_size) must match exactly; a file-size
// figure also holds each safetensors file's JSON header (8 bytes + about 100 bytes of JSON per tensor), so it may
// exceed the tensor bytes by that much and never fall below them. A gap the rules do not close yet carries a
// stored_weight_bytes_unexplained note and is reported as a todo, never passed.
import { describe, expect, it } from "vitest";
import { modelFixture, modelFixtureDirs } from "../../../test/helpers/model-fixtures.ts";
import { readTruth } from "../../../test/helpers/truth.ts";
import { DTYPE_SIZE } from "./dtypes.ts";
import { estimate } from "./estimate.ts";

/** Upper bound of a safetensors header per stored tensor (name, dtype, shape, offsets as JSON). */
const HEADER_BYTES_PER_TENSOR = 200;

const published = modelFixtureDirs()
  .map((dir) => ({ dir, truth: readTruth(dir) }))
  .filter(({ truth }) => typeof truth?.stored_weight_bytes === "number");

describe("quantized weight bytes from config.json = the published bytes", () => {
  it("covers AWQ, GPTQ and fp8 checkpoints published as tensor bytes and as file sizes", () => {
    const methods = published.map(({ dir }) => estimate(modelFixture(dir).config).quantization?.method);
    expect(methods).toContain("awq");
    expect(methods).toContain("gptq");
    expect(methods).toContain("fp8");
    expect(published.map(({ truth }) => truth?.stored_weight_bytes_counts)).toContain("files");
  });

  for (const { dir, truth } of published) {
    const bytes = truth!.stored_weight_bytes as number;
    if (truth!.stored_weight_bytes_unexplained) {
      const gap = estimate(modelFixture(dir).config).weights.stored_bytes - bytes;
      it.todo(
        `UNEXPLAINED ${dir}: ours - published = ${gap.toLocaleString("en-US")} bytes: ${truth!.stored_weight_bytes_unexplained}`,
      );
      it(`${dir} still has a bytes gap (drop its note once the rules close it)`, () =>
        expect(gap).not.toBe(0));
      continue;
    }
    it(`${dir}: ${bytes.toLocaleString("en-US")} bytes (${truth!.stored_weight_bytes_counts})`, () => {
      const e = estimate(modelFixture(dir).config);
      expect(e.memory.serve.breakdown.weights).toBe(e.weights.bytes);
      if (truth!.stored_weight_bytes_counts === "tensors") {
        expect(e.weights.stored_bytes).toBe(bytes);
        return;
      }
      const header = bytes - e.weights.stored_bytes;
      expect(header).toBeGreaterThan(0);
      // At most one header per file, each at most HEADER_BYTES_PER_TENSOR per tensor: 7 linears x 4 tensors
      // (qweight, qzeros, scales, g_idx) + biases and norms per layer is well under 40 tensors a layer.
      const layers = (modelFixture(dir).config as { num_hidden_layers: number }).num_hidden_layers;
      expect(header).toBeLessThan(40 * layers * HEADER_BYTES_PER_TENSOR);
    });
  }

  it("a published tensor list's element count (packed int32 words once) is reproduced per dtype", () => {
    const listed = published.filter(({ truth }) => truth?.stored_elements !== undefined);
    expect(listed.length).toBeGreaterThanOrEqual(2);
    for (const { dir, truth } of listed) {
      const e = estimate(modelFixture(dir).config);
      const elements = Object.entries(e.weights.by_dtype).reduce(
        (a, [dtype, b]) => a + b / (DTYPE_SIZE[dtype] ?? 1),
        0,
      );
      expect(elements, dir).toBe(truth!.stored_elements);
    }
  });
});
