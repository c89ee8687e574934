import { describe, expect, it } from "vitest";
import { pinned as pinnedAs, scan as scanAs } from "./test-helpers.ts";

const SHA = "65be4e00a56c16d036e9cbe96b0b35f8aa0f84b0";
const scan = (text: string, file = "x.py") => scanAs(text, file);
const pinned = (text: string, sha = "f".repeat(40), file = "x.py") => pinnedAs(text, file, sha);

describe("Python", () => {
  it("reads loader calls with literal, keyword and constant arguments", () => {
    const src = [
      'MODEL = "Qwen/Qwen3-8B"',
      "m = AutoModelForCausalLM.from_pretrained(MODEL)",
      `t = AutoTokenizer.from_pretrained(pretrained_model_name_or_path="Qwen/Qwen3-0.6B", revision="${SHA}")`,
      "p = pipeline(task='text-generation', model='openai-community/gpt2', revision='main')",
      'e = SentenceTransformer("sentence-transformers/all-MiniLM-L6-v2", revision="v5.0.0")',
      'w = hf_hub_download("TheBloke/Llama-2-7B-GGUF", "llama-2-7b.Q4_K_M.gguf")',
      'llm = LLM(model="facebook/opt-125m", revision=REV)',
    ].join("\n");
    expect(scan(src)).toEqual([
      "2:42 Qwen/Qwen3-8B@- floating from_pretrained",
      `3:66 Qwen/Qwen3-0.6B@${SHA} pinned from_pretrained`,
      "4:45 openai-community/gpt2@main floating pipeline",
      "5:26 sentence-transformers/all-MiniLM-L6-v2@v5.0.0 pinned SentenceTransformer",
      "6:22 TheBloke/Llama-2-7B-GGUF@- floating hf_hub_download",
      "7:18 facebook/opt-125m@- dynamic LLM",
    ]);
  });

  it("uses the nearest preceding constant when a name is assigned twice", () => {
    const src = 'M = "a/first"\nx = from_pretrained(M)\nM = "b/second"\ny = from_pretrained(M)\n';
    expect(scan(src)).toEqual([
      "2:21 a/first@- floating from_pretrained",
      "4:21 b/second@- floating from_pretrained",
    ]);
  });

  it("reads PEFT adapters, hf-hub: strings, flag defaults and dataclass fields", () => {
    const src = [
      'a = PeftModel.from_pretrained(base, "ybelkada/opt-350m-lora")',
      'v = timm.create_model("hf-hub:timm/resnet50.a1_in1k")',
      'parser.add_argument("--model_name_or_path", type=str, default="google-bert/bert-base-uncased")',
      'parser.add_argument("--model_revision", default="main")',
      "class Args:",
      '    tokenizer_name: str = field(default="google-bert/bert-base-cased")',
    ].join("\n");
    expect(scan(src)).toEqual([
      "1:38 ybelkada/opt-350m-lora@- floating from_pretrained",
      "2:31 timm/resnet50.a1_in1k@- floating hf-hub:",
      "3:64 google-bert/bert-base-uncased@main floating default of model_name_or_path",
      "6:42 google-bert/bert-base-cased@main floating default of tokenizer_name",
    ]);
  });

  it("ignores datasets, spaces, paths, computed ids, push targets and prose", () => {
    const src = [
      '"""Built on Qwen/Qwen3-8B."""',
      'ds = load_dataset("HuggingFaceFW/fineweb")',
      'f = hf_hub_download(repo_id="HuggingFaceFW/fineweb", filename="a", repo_type="dataset")',
      'g = snapshot_download("gradio/hello_world", repo_type="space")',
      'l = AutoModel.from_pretrained("./ckpt/final")',
      'k = AutoModel.from_pretrained("/models/llama")',
      'c = AutoModel.from_pretrained(f"{org}/{name}")',
      'j = AutoModel.from_pretrained("models/config.json")',
      'model.push_to_hub("acme/finetune")',
      "x = AutoModel.from_pretrained(*args)",
      "# see Qwen/Qwen3-8B",
      'name = "Qwen/Qwen3-8B"',
      'b = AutoModel.from_pretrained(b"Qwen/Qwen3-8B")',
      'g2 = AutoModel.from_pretrained("gpt2")',
    ].join("\n");
    expect(scan(src)).toEqual([]);
  });

  it("parses only statements outside docstrings and comments, nested calls and odd quoting included", () => {
    const src = [
      'DOC = """',
      '>>> pipe = DiffusionPipeline.from_pretrained("doc/example")',
      '"""',
      "# AutoModel.from_pretrained('comment/example')",
      'QUOTE = \'"""\'',
      "pipe = Pipeline(",
      '    unet=UNet.from_pretrained("acme/unet",',
      '        subfolder="unet"),',
      '    vae=AutoencoderKL.from_pretrained("acme/vae"))',
      'text = "# not a comment"; tok = AutoTokenizer.from_pretrained("acme/tok")',
    ].join("\n");
    expect(scan(src)).toEqual([
      "7:32 acme/unet@- floating from_pretrained",
      "9:40 acme/vae@- floating from_pretrained",
      "10:64 acme/tok@- floating from_pretrained",
    ]);
  });

  it("pins by adding revision= after the model argument, or by replacing main", () => {
    const src =
      "m = AutoModel.from_pretrained(MODEL, trust_remote_code=True)\np = pipeline(model='a/b', revision='main')\n";
    const out = pinned(`MODEL = "Qwen/Qwen3-8B"\n${src}`);
    expect(out).toBe(
      `MODEL = "Qwen/Qwen3-8B"\nm = AutoModel.from_pretrained(MODEL, revision="${"f".repeat(40)}", trust_remote_code=True)\np = pipeline(model='a/b', revision='${"f".repeat(40)}')\n`,
    );
    expect(scan(out).every((line) => line.includes(" pinned "))).toBe(true);
  });
});

describe("JavaScript and TypeScript (transformers.js)", () => {
  it("reads pipeline(task, model, options) and from_pretrained(model, options)", () => {
    const src = [
      'const p = await pipeline("sentiment-analysis", "Xenova/distilbert-base-uncased");',
      `const e = await pipeline('feature-extraction', 'Xenova/all-MiniLM-L6-v2', { revision: '${SHA}' });`,
      "const ID: string = `onnx-community/Qwen3-0.6B-ONNX`;",
      "const m = await AutoModel.from_pretrained(ID, { dtype: 'q4' });",
      'const not = await pipeline("sentiment-analysis");',
      'const alsoNot = ["huggingface/transformers.js"];',
    ].join("\n");
    expect(scan(src, "app.ts")).toEqual([
      "1:49 Xenova/distilbert-base-uncased@- floating pipeline",
      `2:49 Xenova/all-MiniLM-L6-v2@${SHA} pinned pipeline`,
      "4:43 onnx-community/Qwen3-0.6B-ONNX@- floating from_pretrained",
    ]);
  });

  it("pins by adding an options object, or a revision property to the one given", () => {
    const src =
      'pipeline("t", "a/b");\npipeline("t", \'c/d\', {});\nAutoModel.from_pretrained("e/f", { dtype: "q4" });\n';
    const sha = "f".repeat(40);
    expect(pinned(src, sha, "a.js")).toBe(
      `pipeline("t", "a/b", { revision: "${sha}" });\npipeline("t", 'c/d', { revision: '${sha}' });\nAutoModel.from_pretrained("e/f", { revision: "${sha}", dtype: "q4" });\n`,
    );
  });
});
