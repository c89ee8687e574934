import { describe, expect, it } from "vitest";
import { fileKind } from "./file-kind.ts";
import { parseRepoId } from "./repo-id.ts";
import { pinned, scan } from "./test-helpers.ts";

const SHA = "62bd457b6fe961a42a631306577e622c83876cb6";
const F = "f".repeat(40);

describe("repo ids and file kinds", () => {
  it("accepts owner/name as the Hub spells it, and nothing else", () => {
    expect(["Qwen/Qwen3-8B", "01-ai/Yi-6B", "a/b:Q4_K_M", "org/Llama-3.1-8B"].map(parseRepoId)).toEqual([
      "Qwen/Qwen3-8B",
      "01-ai/Yi-6B",
      "a/b",
      "org/Llama-3.1-8B",
    ]);
    const bad = [
      "gpt2",
      "a/b/c",
      "./a/b",
      "/a/b",
      "datasets/x",
      "spaces/x",
      "a/b.json",
      "2024/05",
      "a--b/c",
      "a/b.",
    ];
    expect(bad.map(parseRepoId)).toEqual(bad.map(() => null));
  });

  it("reads files by name", () => {
    const kinds = [
      "x.py",
      "Dockerfile",
      "Dockerfile.gpu",
      ".env",
      ".env.local",
      "a.yml",
      "b.mdx",
      "c.tsx",
      "notes.txt",
    ];
    expect(kinds.map((n) => fileKind(n))).toEqual([
      "python",
      "dockerfile",
      "dockerfile",
      "dotenv",
      "dotenv",
      "yaml",
      "markdown",
      "tsx",
      null,
    ]);
    expect([
      fileKind("run", "#!/usr/bin/env bash"),
      fileKind("package-lock.json"),
      fileKind("x.min.js"),
    ]).toEqual(["shell", null, null]);
  });
});

describe("YAML", () => {
  it("reads model keys, compose and Kubernetes env, commands and image-implied arguments", () => {
    const src = [
      "model_name_or_path: Qwen/Qwen2.5-0.5B",
      `model_revision: "${SHA}"`,
      "base_model:",
      "  - meta-llama/Llama-3.1-8B",
      "hub_model_id: acme/pushed",
      "dataset_name: tatsu-lab/alpaca",
      "services:",
      "  llm:",
      "    image: vllm/vllm-openai:latest",
      "    command: --model mistralai/Mistral-7B-v0.1 --port 8000",
      "  web:",
      "    image: ghcr.io/open-webui/open-webui:main",
      "    environment: { MODEL_ID: 'HuggingFaceTB/SmolLM2-1.7B', OPENAI_MODEL: openai/gpt-4o }",
      "containers:",
      "  - args: ['vllm', 'serve', 'Qwen/Qwen3-8B']",
      "    env:",
      "      - name: EMBEDDING_MODEL",
      "        value: BAAI/bge-m3",
      "steps:",
      "  - run: |",
      "      huggingface-cli download google/gemma-3-1b-it --revision main",
    ].join("\n");
    expect(scan(src, "a.yaml")).toEqual([
      `1:21 Qwen/Qwen2.5-0.5B@${SHA} pinned model_name_or_path`,
      `4:5 meta-llama/Llama-3.1-8B@${SHA} pinned base_model`,
      "10:22 mistralai/Mistral-7B-v0.1@- floating vllm",
      "13:31 HuggingFaceTB/SmolLM2-1.7B@- floating MODEL_ID",
      "15:30 Qwen/Qwen3-8B@- floating vllm serve",
      "18:16 BAAI/bge-m3@- floating EMBEDDING_MODEL",
      "21:32 google/gemma-3-1b-it@main floating huggingface-cli download",
    ]);
    const out = pinned(src, "a.yaml");
    expect(out).toContain(`command: --model mistralai/Mistral-7B-v0.1 --revision ${F} --port 8000`);
    expect(out).toContain(`args: ['vllm', 'serve', 'Qwen/Qwen3-8B', "--revision", "${F}"]`);
    expect(out).toContain(`google/gemma-3-1b-it --revision ${F}`);
  });

  it("reads every document of a multi-document file and survives broken YAML", () => {
    expect(scan("base_model: a/b\n---\nbase_model: c/d\n", "m.yml")).toEqual([
      "1:13 a/b@- floating base_model",
      "3:13 c/d@- floating base_model",
    ]);
    expect(scan("base_model: [a/b\n  : - ]]\n", "bad.yml")).toEqual([]);
  });
});

describe("TOML and JSON", () => {
  it("reads model keys paired with the revision of the same table", () => {
    const src = [
      "[tool.a]",
      'model_name_or_path = "allenai/OLMo-2-0425-1B"',
      "revision = 'main'",
      "[tool.b]",
      'teacher = { model_id = "Qwen/Qwen3-8B" }',
      'dataset_name = "tatsu-lab/alpaca"',
      'doc = """',
      'model_id = "not/inside-strings"',
      '"""',
    ].join("\n");
    expect(scan(src, "p.toml")).toEqual([
      "2:23 allenai/OLMo-2-0425-1B@main floating model_name_or_path",
      "5:25 Qwen/Qwen3-8B@- floating model_id",
    ]);
    expect(pinned(src, "p.toml")).toContain(`revision = '${F}'`);
    expect(scan('model_id = "a/b', "broken.toml")).toEqual([]);
  });

  it("reads PEFT's adapter_config.json and env-style keys; pins a null revision", () => {
    const src =
      '{\n  // a comment\n  "base_model_name_or_path": "meta-llama/Llama-3.1-8B",\n  "revision": null,\n  "env": {"MODEL_ID": "Qwen/Qwen3-8B"},\n  "dataset": "x/y",\n}\n';
    expect(scan(src, "adapter_config.json")).toEqual([
      "3:31 meta-llama/Llama-3.1-8B@- floating base_model_name_or_path",
      "5:24 Qwen/Qwen3-8B@- floating MODEL_ID",
    ]);
    expect(pinned(src, "adapter_config.json")).toContain(`"revision": "${F}",`);
  });
});

describe("links and Markdown", () => {
  it("reads hf:// paths and Hub links, not datasets, spaces, docs or other hosts", () => {
    const src = [
      "a hf://Qwen/Qwen3-8B/config.json b hf://datasets/x/y/z.parquet c hf://acme/m@v2/w.bin",
      "https://huggingface.co/Qwen/Qwen3-8B. [x](https://hf.co/org/model-1)",
      "https://huggingface.co/unsloth/Qwen3-8B-GGUF/resolve/main/q.gguf",
      `https://huggingface.co/acme/m/blob/${SHA}/README.md https://huggingface.co/api/models/acme/api-listed`,
      "https://huggingface.co/datasets/a/b https://huggingface.co/spaces/a/b https://huggingface.co/docs/hub/x",
      "https://huggingface.co.evil.example/a/b https://cdn-lfs.huggingface.co/a/b https://github.com/a/b",
      "https://huggingface.co/Qwen",
    ].join("\n");
    expect(scan(src, "links.md")).toEqual([
      "1:8 Qwen/Qwen3-8B@- floating hf://",
      "1:71 acme/m@v2 pinned hf://",
      "2:24 Qwen/Qwen3-8B@- floating huggingface.co link",
      "2:57 org/model-1@- floating huggingface.co link",
      "3:24 unsloth/Qwen3-8B-GGUF@main floating huggingface.co link",
      `4:24 acme/m@${SHA} pinned huggingface.co link`,
      "4:121 acme/api-listed@- floating huggingface.co link",
    ]);
    const out = pinned(src, "links.md");
    expect(out).toContain(`hf://Qwen/Qwen3-8B@${F}/config.json`);
    expect(out).toContain(`Qwen3-8B-GGUF/resolve/${F}/q.gguf`);
  });

  it("reads fenced code by language and front matter, not prose", () => {
    const src = [
      "---",
      "base_model: Qwen/Qwen3-0.6B",
      "---",
      "Compare with meta-llama/Llama-3.2-3B or run `vllm serve a/inline`.",
      "```py",
      "m = AutoModel.from_pretrained('Qwen/Qwen3-8B')",
      "```",
      "- in a list:",
      "  ```bash",
      "  $ vllm serve google/gemma-3-4b-it",
      "  ```",
      "```text",
      "vllm serve not/read",
      "```",
    ].join("\n");
    expect(scan(src, "README.md")).toEqual([
      "2:13 Qwen/Qwen3-0.6B@- floating base_model",
      "6:32 Qwen/Qwen3-8B@- floating from_pretrained",
      "10:16 google/gemma-3-4b-it@- floating vllm serve",
    ]);
  });
});
