import { describe, expect, it } from "vitest";
import { shellCommands } from "./shell-words.ts";
import { pinned, scan } from "./test-helpers.ts";

const SHA = "e0bc86c23ce5aae1db576c8cca6f06f1f73af2db";
const F = "f".repeat(40);

describe("shell words", () => {
  it("splits commands at separators and keeps where each value sits", () => {
    const cmds = shellCommands(`a "b c" 'd'\\\n  e$X; f && g # h\ni "j"k`);
    expect(cmds.map((c) => c.map((w) => w.value))).toEqual([
      ["a", "b c", "d", "e$X"],
      ["f"],
      ["g"],
      ["i", "jk"],
    ]);
    const [a, bc, d, e] = cmds[0] ?? [];
    expect([a?.valueStart, bc?.valueStart, d?.valueStart]).toEqual([0, 3, 9]);
    expect(e?.dynamic).toBe(true);
    expect(cmds[3]?.[1]?.valueStart).toBeNull();
  });
});

describe("shell scripts", () => {
  it("reads vllm, the Hub CLIs, TGI, llama.cpp, docker run, script flags and MODEL_ID", () => {
    const src = [
      "#!/bin/sh",
      "export MODEL_ID=Qwen/Qwen3-8B REVISION=v1",
      "sudo vllm serve Qwen/Qwen3-1.7B --port 8000 &&",
      `  huggingface-cli download meta-llama/Llama-3.2-3B --revision=${SHA}`,
      "uv run hf download google/gemma-3-1b-it --local-dir /m",
      "text-generation-launcher --model-id bigcode/starcoder2-3b --revision main",
      "llama-server -hf ggml-org/gemma-3-1b-it-GGUF:Q4_K_M",
      "docker run --gpus all -e HF_MODEL_ID=x/y vllm/vllm-openai:latest --model mistralai/Mistral-7B-v0.1",
      "python3 -m vllm.entrypoints.openai.api_server --model microsoft/phi-2 \\",
      "  --tokenizer microsoft/phi-2",
      "accelerate launch train.py --model_name_or_path openai-community/gpt2 --dataset_name wikitext/x",
      'vllm serve "$MODEL"',
      "hf download HuggingFaceH4/ultrachat_200k --repo-type dataset",
      "echo Qwen/Qwen3-8B",
    ].join("\n");
    expect(scan(src, "s.sh")).toEqual([
      "2:17 Qwen/Qwen3-8B@v1 pinned MODEL_ID",
      "3:17 Qwen/Qwen3-1.7B@- floating vllm serve",
      `4:28 meta-llama/Llama-3.2-3B@${SHA} pinned huggingface-cli download`,
      "5:20 google/gemma-3-1b-it@- floating hf download",
      "6:37 bigcode/starcoder2-3b@main floating text-generation-launcher",
      "7:18 ggml-org/gemma-3-1b-it-GGUF@- floating llama.cpp -hf",
      "8:38 x/y@- floating HF_MODEL_ID",
      "8:74 mistralai/Mistral-7B-v0.1@- floating vllm",
      "9:55 microsoft/phi-2@- floating vllm",
      "11:49 openai-community/gpt2@- floating --model_name_or_path",
    ]);
  });

  it("pins by adding --revision after the model, or by replacing main", () => {
    const src =
      "vllm serve Qwen/Qwen3-8B --port 8000\ntext-generation-launcher --model-id a/b --revision main\n";
    expect(pinned(src, "s.sh")).toBe(
      `vllm serve Qwen/Qwen3-8B --revision ${F} --port 8000\ntext-generation-launcher --model-id a/b --revision ${F}\n`,
    );
  });
});

describe("Dockerfile", () => {
  it("reads RUN in shell and exec form, CMD, ENTRYPOINT and ENV/ARG settings", () => {
    const src = [
      "FROM vllm/vllm-openai:v0.8.0",
      "ARG MODEL_ID=Qwen/Qwen3-0.6B",
      "ENV MODEL_REVISION main",
      "RUN huggingface-cli download BAAI/bge-small-en-v1.5 \\",
      `    --revision ${SHA}`,
      'ENTRYPOINT ["vllm", "serve", "Qwen/Qwen2.5-1.5B-Instruct"]',
      "# RUN vllm serve commented/out",
    ].join("\n");
    expect(scan(src, "Dockerfile")).toEqual([
      "2:14 Qwen/Qwen3-0.6B@main floating MODEL_ID",
      `4:30 BAAI/bge-small-en-v1.5@${SHA} pinned huggingface-cli download`,
      "6:31 Qwen/Qwen2.5-1.5B-Instruct@- floating vllm serve",
    ]);
    expect(pinned(src, "Dockerfile")).toContain(
      `ENV MODEL_REVISION ${F}\nRUN huggingface-cli download BAAI/bge-small-en-v1.5 \\\n    --revision ${SHA}\nENTRYPOINT ["vllm", "serve", "Qwen/Qwen2.5-1.5B-Instruct", "--revision", "${F}"]`,
    );
  });
});

describe("env files", () => {
  it("reads MODEL_ID-style keys paired with their revision, and skips other providers", () => {
    const src = [
      "MODEL_ID=Qwen/Qwen3-8B",
      "export EMBEDDING_MODEL='BAAI/bge-m3'  # embeddings",
      "EMBEDDING_MODEL_REVISION=main",
      "OPENAI_MODEL=openai/gpt-4o",
      "DATASET_ID=HuggingFaceFW/fineweb",
      "HUB_MODEL_ID=acme/pushed",
      "MODEL=$BASE/x",
    ].join("\n");
    expect(scan(src, ".env")).toEqual([
      "1:10 Qwen/Qwen3-8B@- floating MODEL_ID",
      "2:25 BAAI/bge-m3@main floating EMBEDDING_MODEL",
    ]);
    expect(pinned(src, ".env")).toContain(`EMBEDDING_MODEL_REVISION=${F}\n`);
  });
});
