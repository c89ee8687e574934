/**
 * A replay-hub repo of realistic size for the polling benchmark: the real Qwen3-8B config.json, a
 * 10-shard checkpoint (headers generated from the config; bodies virtual, ~16 GB advertised), a
 * ~10 MB tokenizer.json, tokenizer_config.json with a real chat template, generation_config.json and
 * a README. `changes` are the kinds of revision measured, each applied on top of the last.
 */
import {
  GITATTRIBUTES,
  json,
  lazyText,
  realConfig,
  realTemplates,
  text,
  tokenizerConfig,
  weights,
} from "../../src/replay-hub/fixtures/builder.ts";
import { makeTokenizer } from "../../src/replay-hub/index.ts";
import type { CommitSpec, FileSpec, RepoSpec } from "../../src/replay-hub/types.ts";

const SHARDS = 10;
/** WordLevel entries pretty-printed are ~18 bytes each: ~555k entries make ~10 MB. */
const TOKENIZER_VOCAB = Math.round(10_000_000 / 18);

function tokenizerFile(addedTokens: string[]): FileSpec {
  const make = () =>
    `${JSON.stringify(makeTokenizer({ model: "WordLevel", vocabSize: TOKENIZER_VOCAB, addedTokens }), null, 2)}\n`;
  return lazyText(make, `bench-tokenizer:${TOKENIZER_VOCAB}:${addedTokens.join(",")}`);
}

const SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"];
// Shared across repos: built once, served many times.
const TOKENIZER = tokenizerFile(SPECIAL);
const TOKENIZER_MORE = tokenizerFile([...SPECIAL, "<think>", "</think>"]);

const at = (i: number) => new Date(Date.UTC(2025, 5, 1) + i * 3_600_000).toISOString();

export function realisticRepo(id: string): RepoSpec {
  const { file, config } = realConfig("Qwen__Qwen3-8B");
  const [tmpl] = realTemplates("Qwen__Qwen2.5-7B-Instruct");
  return {
    id,
    commits: [
      { title: "initial commit", date: at(0), changes: { ".gitattributes": GITATTRIBUTES } },
      {
        title: "Upload folder using huggingface_hub",
        date: at(1),
        changes: {
          "config.json": file,
          ...weights(config, { shards: SHARDS }),
          "tokenizer.json": TOKENIZER,
          "tokenizer_config.json": tokenizerConfig(tmpl!.template),
          "generation_config.json": json({ bos_token_id: 151643, eos_token_id: 151645, temperature: 0.6 }),
          "README.md": text("# Qwen3-8B (bench copy)\n"),
        },
      },
    ],
  };
}

export type ChangeKind =
  | "readme"
  | "generation_config"
  | "chat_template"
  | "tokenizer"
  | "one_shard"
  | "layers";

/** One revision of each kind, in the order applied (each on top of the previous). */
export function changes(): { kind: ChangeKind; spec: (i: number) => CommitSpec }[] {
  const { config } = realConfig("Qwen__Qwen3-8B");
  const templates = realTemplates("Qwen__Qwen2.5-7B-Instruct");
  const grown = { ...config, num_hidden_layers: 40 };
  const oneShard = weights(config, { shards: SHARDS, metadata: { format: "pt", exporter: "bench-2" } });
  const firstShard = Object.keys(oneShard).find((k) => k.endsWith(".safetensors"))!;
  return [
    {
      kind: "readme",
      spec: (i) => ({ title: "README", date: at(i), changes: { "README.md": text(`# r${i}\n`) } }),
    },
    {
      kind: "generation_config",
      spec: (i) => ({
        title: "temperature",
        date: at(i),
        changes: {
          "generation_config.json": json({ bos_token_id: 151643, eos_token_id: 151645, temperature: 0.7 }),
        },
      }),
    },
    {
      kind: "chat_template",
      spec: (i) => ({
        title: "template v2",
        date: at(i),
        changes: { "tokenizer_config.json": tokenizerConfig(templates[1]!.template) },
      }),
    },
    {
      kind: "tokenizer",
      spec: (i) => ({ title: "tokens", date: at(i), changes: { "tokenizer.json": TOKENIZER_MORE } }),
    },
    {
      kind: "one_shard",
      spec: (i) => ({
        title: "re-export shard 1",
        date: at(i),
        changes: { [firstShard]: oneShard[firstShard]! },
      }),
    },
    {
      kind: "layers",
      spec: (i) => ({
        title: "40 layers",
        date: at(i),
        changes: { "config.json": json(grown), ...weights(grown, { shards: SHARDS }) },
      }),
    },
  ];
}
