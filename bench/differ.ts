/**
 * `npm run bench:differ`: time of the pure differ (src/core/diff) on one core, on inputs of realistic size:
 *   - tokenizer.json of ~10 MB (BPE, 150k vocabulary + 150k merges, like Qwen's or Llama 3's): summarize
 *     both revisions and diff the summaries (what the pipeline does per changed tokenizer.json);
 *   - config.json changesets (real Qwen3-8B with layer/rope/dtype edits; a nested multimodal config);
 *   - chat template diffs with the rendered prompts of the fixed conversations (real Qwen2.5 v1 -> v2,
 *     real Llama 3.1 template against a whitespace-only edit of itself).
 * Bounded iterations (BENCH_ITERATIONS scales them). Prints one JSON line last.
 */
import { readFileSync } from "node:fs";
import {
  diffChatTemplate,
  diffJson,
  diffTokenizerSummary,
  summarizeTokenizer,
} from "../src/core/diff/index.ts";
import { machine, round, summarize } from "./lib/harness.ts";

const SCALE = Number(process.env.BENCH_ITERATIONS ?? 1);
const ROOT = new URL("../fixtures/", import.meta.url);
const read = (p: string) => readFileSync(new URL(p, ROOT), "utf8");

function time(iterations: number, fn: () => unknown) {
  fn(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < Math.max(1, Math.round(iterations * SCALE)); i++) {
    const t = performance.now();
    fn();
    samples.push(performance.now() - t);
  }
  return summarize(samples);
}

/** A BPE tokenizer.json of about `targetBytes`, pretty-printed as tokenizers writes it. */
function bpeTokenizer(entries: number, added: string[]): string {
  const vocab: Record<string, number> = {};
  const merges: string[] = [];
  for (let i = 0; i < entries; i++) {
    const piece = `Ġ${i.toString(36)}x${((i * 7919) % 100_000).toString(36)}`;
    vocab[piece] = i;
    merges.push(`Ġ${i.toString(36)} x${((i * 7919) % 100_000).toString(36)}`);
  }
  const addedTokens = added.map((content, i) => ({
    id: entries + i,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  }));
  const doc = {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: addedTokens,
    normalizer: { type: "NFC" },
    pre_tokenizer: { type: "Sequence", pretokenizers: [{ type: "Split" }, { type: "ByteLevel" }] },
    post_processor: { type: "ByteLevel" },
    decoder: { type: "ByteLevel" },
    model: { type: "BPE", dropout: null, unk_token: null, byte_fallback: false, vocab, merges },
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

function tokenizerBench() {
  const special = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"];
  const before = bpeTokenizer(200_000, special);
  const after = bpeTokenizer(200_000, [...special, "<think>", "</think>", "<tool_call>"]);
  const stats = time(5, () => diffTokenizerSummary(summarizeTokenizer(before), summarizeTokenizer(after)));
  const diff = diffTokenizerSummary(summarizeTokenizer(before), summarizeTokenizer(after));
  return {
    bytesEach: Buffer.byteLength(before),
    ...stats,
    perMiBMs: round(stats.medianMs / 2 / (Buffer.byteLength(before) / 2 ** 20)),
    sample: diff,
  };
}

function configBench() {
  const qwen = JSON.parse(read("models/Qwen__Qwen3-8B/config.json")) as Record<string, unknown>;
  const edited = {
    ...qwen,
    num_hidden_layers: 40,
    torch_dtype: "float16",
    rope_scaling: { rope_type: "yarn", factor: 4.0, original_max_position_embeddings: 32768 },
    eos_token_id: [151645, 151643],
  };
  const vl = JSON.parse(read("models/Qwen__Qwen3-VL-8B-Instruct/config.json")) as Record<string, unknown>;
  const vlText = vl.text_config as Record<string, unknown>;
  const vlEdited = {
    ...vl,
    text_config: { ...vlText, num_hidden_layers: 40, max_position_embeddings: 131072 },
  };
  return {
    qwen3: { changes: diffJson(qwen, edited).changes.length, ...time(500, () => diffJson(qwen, edited)) },
    qwen3vl: { changes: diffJson(vl, vlEdited).changes.length, ...time(500, () => diffJson(vl, vlEdited)) },
  };
}

function templateBench() {
  const q1 = read("templates/Qwen__Qwen2.5-7B-Instruct/v1-2024-09-16/chat_template.jinja");
  const q2 = read("templates/Qwen__Qwen2.5-7B-Instruct/v2-2024-09-18/chat_template.jinja");
  const qTokens = { eos_token: "<|im_end|>" };
  const llama = read("templates/unsloth__Meta-Llama-3.1-8B-Instruct/v1-2024-07-23/chat_template.jinja");
  const lTokens = { bos_token: "<|begin_of_text|>", eos_token: "<|eot_id|>" };
  const qd = diffChatTemplate(q1, q2, qTokens);
  const ld = diffChatTemplate(llama, `${llama}\n`, lTokens);
  return {
    qwen25_v1_v2: {
      promptChanged: qd.promptChanged,
      scenarios: qd.scenarios.length,
      ...time(30, () => diffChatTemplate(q1, q2, qTokens)),
    },
    llama31_whitespace: {
      promptChanged: ld.promptChanged,
      ...time(30, () => diffChatTemplate(llama, `${llama}\n`, lTokens)),
    },
  };
}

const result = {
  bench: "differ",
  machine: machine(),
  tokenizer10MB: tokenizerBench(),
  configChangeset: configBench(),
  templateRenderDiff: templateBench(),
};
console.log(JSON.stringify(result));
