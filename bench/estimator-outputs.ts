/**
 * `tsx bench/estimator-outputs.ts OUT`: one sha256 per fixture and output to OUT (or stdout), so a change meant to
 * leave the estimator's numbers alone can be checked byte for byte. Per fixture: what `hubwatch estimate` prints
 * for its folder (JSON, Markdown, full Markdown, summary), the estimate of its config alone, and estimates with
 * headers made from that estimate's structure (matching, off by some scalars, fp8, headers only) and with an
 * index total. Prints a JSON line last with the count and one digest over all lines.
 */
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type EstimateIo, nodeEstimateIo, runEstimateCommand } from "../src/cli/estimate-command.ts";
import { type Estimate, estimate } from "../src/core/estimator/estimate.ts";
import { renderMarkdown } from "../src/core/estimator/markdown.ts";
import type { CheckpointInput, TensorHeader } from "../src/core/estimator/types.ts";
import { MODEL_FIXTURES, modelFixtureDirs } from "../test/helpers/model-fixtures.ts";
import { readConfigJson } from "../test/helpers/truth.ts";

const sha = (s: string) => createHash("sha256").update(s).digest("hex");

/** The estimate's JSON and both Markdown renderings, or the error it throws. */
function outputsOf(config: unknown, opts: { checkpoint?: CheckpointInput } = {}): string {
  try {
    const e = estimate(config, opts);
    return [
      JSON.stringify(e, null, 2),
      renderMarkdown(e, "x/y"),
      renderMarkdown(e, "x/y", { full: true }),
    ].join("\n---\n");
  } catch (err) {
    return `error: ${(err as Error).message}`;
  }
}

/** One tensor per structure row that owns parameters, at `dtype`. */
function headersOf(e: Estimate, dtype: string): TensorHeader[] {
  return e.structure
    .filter((s) => s.params > 0 && s.tied_to === undefined)
    .map((s) => ({ name: `${s.tower}.${s.name}.weight`, dtype, shape: [s.params] }));
}

async function cliOutputs(dir: string): Promise<string> {
  const path = fileURLToPath(new URL(dir, MODEL_FIXTURES));
  const parts: string[] = [];
  for (const opts of [{ json: true }, { markdown: true }, { markdown: true, full: true }, {}]) {
    let out = "";
    const io: EstimateIo = {
      ...nodeEstimateIo(),
      stdout: { write: (s: string) => (out += s) },
      stderr: { write: (s: string) => (out += `stderr: ${s}`) },
    };
    const rc = await runEstimateCommand(path, opts, io);
    parts.push(`${rc}\n${out}`);
  }
  return parts.join("\n---\n");
}

function variants(config: unknown): Record<string, string> {
  const out: Record<string, string> = { config: outputsOf(config) };
  let e: Estimate;
  try {
    e = estimate(config);
  } catch {
    return out;
  }
  const bf16 = headersOf(e, "BF16");
  const extra = [...bf16, { name: "extra.weight", dtype: "BF16", shape: [12345] }];
  const unknown = {
    ...(config as object),
    model_type: "zz_unknown",
    architectures: ["ZzUnknownForCausalLM"],
  };
  out.headers = outputsOf(config, { checkpoint: { tensors: bf16 } });
  out.headers_extra = outputsOf(config, { checkpoint: { tensors: extra } });
  out.headers_fp8 = outputsOf(config, { checkpoint: { tensors: headersOf(e, "F8_E4M3") } });
  out.headers_only = outputsOf(unknown, { checkpoint: { tensors: bf16 } });
  out.index = outputsOf(config, { checkpoint: { indexTotalSizeBytes: e.weights.stored_bytes } });
  out.index_off = outputsOf(config, { checkpoint: { indexTotalSizeBytes: e.weights.stored_bytes + 4096 } });
  return out;
}

const lines: string[] = [];
for (const dir of modelFixtureDirs()) {
  lines.push(`${dir} cli ${sha(await cliOutputs(dir))}`);
  for (const [name, text] of Object.entries(variants(readConfigJson(dir))))
    lines.push(`${dir} ${name} ${sha(text)}`);
}
const file = process.argv[2];
if (file) writeFileSync(file, `${lines.join("\n")}\n`);
else console.log(lines.join("\n"));
// One digest over every line: two runs agree exactly when this does.
const all = sha(`${lines.join("\n")}\n`);
console.log(
  JSON.stringify({
    bench: "estimator-outputs",
    fixtures: modelFixtureDirs().length,
    hashes: lines.length,
    sha256: all,
  }),
);
