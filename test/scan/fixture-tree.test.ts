import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModelReference } from "../../src/core/scan/types.ts";
import { planPins, writePins } from "../../src/services/scan/fix-pins.ts";
import { scanTree } from "../../src/services/scan/scan-tree.ts";

// `hubwatch scan` on test/fixtures/scan/tree: every reference form, every decoy, exact findings.

const FIXTURE = new URL("../fixtures/scan/tree/", import.meta.url);

/** What the fixture holds, in the walk's order (paths sorted, then by position). */
const EXPECTED = [
  ".env.example:2:10 Qwen/Qwen3-Embedding-0.6B - floating dotenv MODEL_ID",
  ".env.example:3:17 BAAI/bge-m3 5617a9f61b028005a4858fdac845db406aefb181 pinned dotenv EMBEDDING_MODEL",
  ".github/workflows/eval.yml:9:23 HuggingFaceTB/SmolLM2-135M main floating yaml hf download",
  ".github/workflows/eval.yml:10:47 HuggingFaceTB/SmolLM2-360M - floating yaml --model_name_or_path",
  "Dockerfile:3:14 microsoft/Phi-3-mini-4k-instruct - floating dockerfile MODEL_ID",
  "Dockerfile:4:30 BAAI/bge-small-en-v1.5 5c38ec7c405ec4b44b94cc5a9bb96e735b38267a pinned dockerfile huggingface-cli download",
  "Dockerfile:7:24 Qwen/Qwen2.5-1.5B-Instruct - floating dockerfile vllm serve",
  "README.md:2:13 Qwen/Qwen3-0.6B - floating yaml base_model",
  "README.md:10:50 Qwen/Qwen3-0.6B - floating url huggingface.co link",
  "README.md:18:47 unsloth/Qwen3-8B-GGUF main floating url huggingface.co link",
  "README.md:23:43 HuggingFaceTB/SmolLM2-135M-Instruct - floating python pipeline",
  "README.md:27:14 google/gemma-3-4b-it - floating shell vllm serve",
  "README.md:31:18 bartowski/Llama-3.2-1B-Instruct-GGUF - floating url huggingface.co link",
  "adapter/adapter_config.json:2:31 meta-llama/Llama-3.1-8B - floating json base_model_name_or_path",
  "configs/axolotl.yml:1:13 NousResearch/Meta-Llama-3-8B 62bd457b6fe961a42a631306577e622c83876cb6 pinned yaml base_model",
  "configs/sft.yaml:2:21 Qwen/Qwen2.5-0.5B main floating yaml model_name_or_path",
  "deploy/docker-compose.yml:4:27 mistralai/Mistral-Nemo-Instruct-2407 - floating yaml vllm",
  "deploy/docker-compose.yml:8:18 HuggingFaceTB/SmolLM2-1.7B-Instruct 31b70e2e869a7173562077fd711b654946d38674 pinned yaml MODEL_ID",
  "pyproject.toml:9:23 allenai/OLMo-2-0425-1B stage1-step10000-tokens21B pinned toml model_name_or_path",
  "scripts/serve.sh:4:17 Qwen/Qwen2.5-7B-Instruct main floating shell MODEL_ID",
  "scripts/serve.sh:7:12 Qwen/Qwen3-8B - floating shell vllm serve",
  "scripts/serve.sh:8:26 mistralai/Mistral-7B-Instruct-v0.3 e0bc86c23ce5aae1db576c8cca6f06f1f73af2db pinned shell huggingface-cli download",
  "scripts/serve.sh:11:13 deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B - floating shell hf download",
  "scripts/serve.sh:13:24 openai-community/gpt2-medium - floating shell --model_name_or_path",
  "train.py:19:46 Qwen/Qwen3-1.7B main floating python default of model_name_or_path",
  "train.py:28:46 Qwen/Qwen3-0.6B - floating python from_pretrained",
  "train.py:30:6 Qwen/Qwen3-4B-Instruct-2507 cdbee75f17c01a7cc42f958dc650907174af0554 pinned python from_pretrained",
  "train.py:32:43 meta-llama/Llama-3.2-3B main floating python pipeline",
  "train.py:33:36 openai-community/gpt2 - floating python pipeline",
  "train.py:34:33 sentence-transformers/all-MiniLM-L6-v2 v5.0.0 pinned python SentenceTransformer",
  "train.py:35:36 TheBloke/Llama-2-7B-GGUF - floating python hf_hub_download",
  "train.py:36:45 ybelkada/opt-350m-lora - dynamic python from_pretrained",
  "train.py:37:31 google/gemma-3-1b-it refs/pr/1 pinned python snapshot_download",
  "train.py:38:33 timm/vit_base_patch16_224.augreg2_in21k_ft_in1k - floating python hf-hub:",
  "train.py:39:20 mistralai/Mistral-7B-v0.1 - floating url hf://",
  "web/app.ts:3:58 Xenova/distilbert-base-uncased-finetuned-sst-2-english - floating javascript pipeline",
  "web/app.ts:4:53 Xenova/all-MiniLM-L6-v2 751bff37182d3f1213fa05d7196b954e230abad9 pinned javascript pipeline",
  "web/app.ts:9:47 onnx-community/Qwen3-Embedding-0.6B-ONNX - floating javascript from_pretrained",
];

function describeRef(r: ModelReference): string {
  const state = r.dynamicRevision ? "dynamic" : r.floating ? "floating" : "pinned";
  return `${r.file}:${r.line}:${r.column} ${r.repo} ${r.revision ?? "-"} ${state} ${r.syntax} ${r.context}`;
}

/** Files the repository's own .gitignore keeps out of git, made in the copy: each must be skipped. */
async function addSkippedFiles(root: string): Promise<void> {
  const write = async (path: string, content: string | Buffer) => {
    await mkdir(join(root, path, ".."), { recursive: true });
    await writeFile(join(root, path), content);
  };
  await write("node_modules/some-lib/index.js", 'pipeline("t", "vendored/model");\n');
  await write("third_party/lib/load.py", 'from_pretrained("vendored/python-model")\n');
  await write("scratch/try.py", 'from_pretrained("ignored/scratch-model")\n');
  await write("experiment.local.py", 'from_pretrained("ignored/local-model")\n');
  await write(
    "assets/blob.py",
    Buffer.concat([Buffer.from('from_pretrained("binary/model")\n'), Buffer.alloc(16)]),
  );
  await write("data/big.json", `{"model_id": "large/model", "pad": "${"x".repeat(1 << 20)}"}`);
}

describe("scan of the fixture tree", () => {
  let root = "";
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "hubwatch-scan-"));
    await cp(FIXTURE, root, { recursive: true });
    await addSkippedFiles(root);
  });
  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("finds exactly the expected references, each at the place that names it", async () => {
    const scanned = await scanTree(["."], { cwd: root });
    expect(scanned.references.map(describeRef)).toEqual(EXPECTED);
    for (const r of scanned.references) {
      const line = (await readFile(join(root, r.file), "utf8")).split("\n")[r.line - 1] ?? "";
      const named = line.slice(r.column - 1, r.endColumn - 1);
      expect(
        named === r.repo || named === "BASE" || named === "EMBEDDINGS",
        `${r.file}:${r.line} ${named}`,
      ).toBe(true);
    }
    expect(scanned.stats).toMatchObject({ files: 12, ignored: 2, vendored: 2, binary: 1, large: 1 });
  });

  it("reads a file named on the command line even if ignored, and drops local checkpoint folders", async () => {
    const one = await scanTree(["scratch/try.py", "train.py"], { cwd: root });
    const repos = one.references.map((r) => r.repo);
    expect(repos).toContain("ignored/scratch-model");
    expect(repos).not.toContain("outputs/run-1");
  });

  it("--fix-pins plans a diff, writes only when asked, and a rescan then finds those references pinned", async () => {
    const before = await scanTree(["."], { cwd: root });
    const heads = new Map(before.references.map((r, i) => [r.repo, i.toString(16).padStart(40, "a")]));
    const plan = await planPins(before.references, heads, root);
    const pinnable = before.references.filter((r) => r.floating && r.pin);
    expect(plan.pinned).toBe(pinnable.length);
    expect(plan.diff).toContain("--- a/train.py\n+++ b/train.py\n");
    expect(plan.diff).toContain(
      `+model = AutoModelForCausalLM.from_pretrained(BASE, revision="${heads.get("Qwen/Qwen3-0.6B")}")`,
    );
    expect(plan.notPinned.map((n) => `${n.ref.file}:${n.ref.line}`)).toEqual(
      before.references.filter((r) => r.floating && !r.pin).map((r) => `${r.file}:${r.line}`),
    );
    expect(await readFile(join(root, "train.py"), "utf8")).toBe(
      await readFile(new URL("train.py", FIXTURE), "utf8"),
    );

    await writePins(plan, root);
    const after = await scanTree(["."], { cwd: root });
    const stillFloating = after.references.filter((r) => r.floating).map((r) => `${r.file} ${r.repo}`);
    expect(stillFloating.sort()).toEqual(plan.notPinned.map((n) => `${n.ref.file} ${n.ref.repo}`).sort());
    for (const r of after.references) {
      const was = before.references.find(
        (b) => b.file === r.file && b.repo === r.repo && b.floating && b.pin,
      );
      if (was) expect(r.revision, `${r.file} ${r.repo}`).toBe(heads.get(r.repo));
    }
  });
});
