import { isModelKey, isRevisionKey } from "./config-keys.ts";
import { type EnvEntry, envReferences, splitAssignment } from "./env-vars.ts";
import { parseRepoId } from "./repo-id.ts";
import { shellCommands, type Word } from "./shell-words.ts";
import type { FoundReference, PinEdit, ScanSyntax } from "./types.ts";

/** A command line tool that loads a Hub model, and where its command line names it. */
type Tool = {
  context: string;
  /** The model is the first argument after the tool's words (`vllm serve MODEL`). */
  positional: boolean;
  modelFlags: string[];
  revisionFlag: string | null;
  /** `--repo-type dataset` and `--repo-type space` are not models. */
  repoTypeFlag?: string;
};

const VLLM: Tool = {
  context: "vllm serve",
  positional: true,
  modelFlags: ["--model"],
  revisionFlag: "--revision",
};
const VLLM_ARGS: Tool = { ...VLLM, context: "vllm", positional: false };
const TGI: Tool = {
  context: "text-generation-launcher",
  positional: false,
  modelFlags: ["--model-id"],
  revisionFlag: "--revision",
};
const HUB_DOWNLOAD = {
  positional: true,
  modelFlags: [],
  revisionFlag: "--revision",
  repoTypeFlag: "--repo-type",
};
const LLAMA_CPP: Tool = {
  context: "llama.cpp -hf",
  positional: false,
  modelFlags: ["-hf", "--hf-repo", "-hfr"],
  revisionFlag: null,
};

/** Tools by the words that start their command line (after `sudo`, `uv run`, `python -m` and such). */
const TOOLS: [string[], Tool][] = [
  [["vllm", "serve"], VLLM],
  [["vllm.entrypoints.openai.api_server"], VLLM_ARGS],
  [["sglang.launch_server"], { ...VLLM_ARGS, context: "sglang", modelFlags: ["--model-path", "--model"] }],
  [["text-generation-launcher"], TGI],
  [["huggingface-cli", "download"], { ...HUB_DOWNLOAD, context: "huggingface-cli download" }],
  [["hf", "download"], { ...HUB_DOWNLOAD, context: "hf download" }],
  [["llama-server"], LLAMA_CPP],
  [["llama-cli"], LLAMA_CPP],
  [
    ["mlx_lm.generate"],
    { context: "mlx_lm", positional: false, modelFlags: ["--model"], revisionFlag: null },
  ],
  [["mlx_lm.server"], { context: "mlx_lm", positional: false, modelFlags: ["--model"], revisionFlag: null }],
];

/** Container images whose arguments are a server's flags (`docker run vllm/vllm-openai --model X`). */
export const IMAGE_TOOLS: [RegExp, Tool][] = [
  [/(^|\/)vllm-openai(:|@|$)/, VLLM_ARGS],
  [/(^|\/)text-generation-inference(:|@|$)/, { ...TGI, context: "text-generation-inference" }],
];

const WRAPPERS = new Set(["$", "%", "sudo", "exec", "env", "nohup", "time", "command", "uvx", "npx"]);
const WRAPPER_PAIRS = new Set(["uv run", "poetry run", "pipx run", "pdm run", "conda run"]);

/** Drops prompts, wrappers, `python -m` and leading `KEY=value` words; those go to `env`. */
function stripPrefix(words: Word[], env: Word[]): Word[] {
  let i = 0;
  while (i < words.length) {
    const w = words[i]?.value ?? "";
    const pair = `${w} ${words[i + 1]?.value ?? ""}`;
    if (splitAssignment(w)) env.push(words[i] as Word);
    else if (WRAPPER_PAIRS.has(pair)) i += 1;
    else if (/^python[0-9.]*$/.test(w) && words[i + 1]?.value === "-m") i += 1;
    else if (!WRAPPERS.has(w)) break;
    i += 1;
  }
  return words.slice(i);
}

function toolOf(argv: Word[]): { tool: Tool; rest: Word[] } | null {
  for (const [head, tool] of TOOLS) {
    if (head.every((h, k) => argv[k]?.value === h)) return { tool, rest: argv.slice(head.length) };
  }
  const docker = ["docker", "podman"].includes(argv[0]?.value ?? "") && argv[1]?.value === "run";
  if (!docker) return null;
  for (let k = 2; k < argv.length; k++) {
    const image = IMAGE_TOOLS.find(([re]) => re.test(argv[k]?.value ?? ""));
    if (image) return { tool: image[1], rest: argv.slice(k + 1) };
  }
  return null;
}

/** A flag's value: `--flag value` or `--flag=value`, with where the value sits in the source. */
type FlagValue = { flag: string; word: Word; value: string; valueStart: number | null };

function flagValue(words: Word[], names: (flag: string) => boolean): FlagValue | null {
  for (let k = 0; k < words.length; k++) {
    const w = words[k] as Word;
    const eq = w.value.indexOf("=");
    const flag = w.value.slice(0, eq);
    if (w.value.startsWith("-") && eq > 0 && names(flag)) {
      const valueStart = w.valueStart === null ? null : w.valueStart + eq + 1;
      return { flag, word: w, value: w.value.slice(eq + 1), valueStart };
    }
    const next = words[k + 1];
    if (w.value.startsWith("-") && names(w.value) && next) {
      return { flag: w.value, word: next, value: next.value, valueStart: next.valueStart };
    }
  }
  return null;
}

/** Docker's `-e KEY=value` / `--env KEY=value` words. */
function dockerEnv(argv: Word[], env: Word[]): void {
  for (let k = 0; k < argv.length - 1; k++) {
    if (argv[k]?.value === "-e" || argv[k]?.value === "--env") env.push(argv[k + 1] as Word);
  }
}

type Insert = (at: number, flag: string) => PinEdit;

const shellInsert: Insert = (at, flag) => ({ start: at, end: at, before: ` ${flag} `, after: "" });

/**
 * The reference `model` makes, pinned by the tool's revision flag when present (a pin replaces its
 * value); when absent, `insert` (if given) adds the flag after the model.
 */
function reference(
  model: FlagValue,
  context: string,
  revisionFlag: string | null,
  argv: Word[],
  syntax: ScanSyntax,
  insert: Insert | null,
): FoundReference | null {
  if (model.word.dynamic) return null;
  const repo = parseRepoId(model.value);
  if (!repo) return null;
  const rev = revisionFlag ? flagValue(argv, (f) => f === revisionFlag) : null;
  const start = model.valueStart ?? model.word.start;
  const end = model.valueStart === null ? model.word.end : start + repo.length;
  const found: FoundReference = { start, end, repo, revision: rev?.value ?? null, syntax, context };
  if (rev?.word.dynamic) {
    found.revision = null;
    found.dynamicRevision = true;
  } else if (rev && rev.valueStart !== null) {
    found.pin = { start: rev.valueStart, end: rev.valueStart + rev.value.length, before: "", after: "" };
  } else if (!rev && revisionFlag && insert && model.valueStart !== null) {
    found.pin = insert(model.word.end, revisionFlag);
  }
  return found;
}

/** Options for argv that does not come from shell text (exec-form JSON, YAML lists). */
type ArgvOptions = {
  /** The argv's tool is implied by a container image (compose `image: vllm/vllm-openai`). */
  implied?: Tool;
  /** How to add `--revision SHA` after a model word in this syntax (default: shell text; null: never). */
  insert?: Insert | null;
};

function toolReference(
  tool: Tool,
  rest: Word[],
  syntax: ScanSyntax,
  insert: Insert | null,
): FoundReference | null {
  const repoType = tool.repoTypeFlag ? flagValue(rest, (f) => f === tool.repoTypeFlag) : null;
  if (repoType && repoType.value !== "model") return null;
  const first = rest[0];
  const model =
    tool.positional && first && !first.value.startsWith("-")
      ? { flag: "", word: first, value: first.value, valueStart: first.valueStart }
      : flagValue(rest, (f) => tool.modelFlags.includes(f));
  return model ? reference(model, tool.context, tool.revisionFlag, rest, syntax, insert) : null;
}

/** `python train.py --model_name_or_path X [--model_revision R]`: the flag's name says it is a model. */
function scriptFlagReference(argv: Word[], syntax: ScanSyntax): FoundReference | null {
  const model = flagValue(argv, (f) => f.startsWith("--") && isModelKey(f));
  if (!model) return null;
  const revision = flagValue(argv, (f) => f.startsWith("--") && isRevisionKey(f));
  return reference(model, model.flag, revision?.flag ?? null, argv, syntax, null);
}

/** References in one command line: a known tool's model, model-named flags of any script, env settings. */
export function argvReferences(
  words: Word[],
  syntax: ScanSyntax,
  env: Word[],
  opts: ArgvOptions = {},
): FoundReference[] {
  const insert = opts.insert === undefined ? shellInsert : opts.insert;
  if (opts.implied) {
    const ref = toolReference(opts.implied, words, syntax, insert);
    return ref ? [ref] : [];
  }
  const argv = stripPrefix(words, env);
  const out: FoundReference[] = [];
  if (["docker", "podman"].includes(argv[0]?.value ?? "")) {
    // A container's `-e` settings pair only with each other: the script's own variables stay outside.
    const containerEnv: Word[] = [];
    dockerEnv(argv, containerEnv);
    out.push(...envReferences(envEntries(containerEnv), syntax));
  }
  const tool = toolOf(argv);
  const ref = tool ? toolReference(tool.tool, tool.rest, syntax, insert) : scriptFlagReference(argv, syntax);
  return ref ? [...out, ref] : out;
}

export function envEntries(words: Word[]): EnvEntry[] {
  const out: EnvEntry[] = [];
  for (const w of words) {
    const kv = splitAssignment(w.value);
    if (!kv || w.dynamic) continue;
    const valueStart = w.valueStart === null ? null : w.valueStart + kv.key.length + 1;
    out.push({ ...kv, start: w.start, end: w.end, valueStart });
  }
  return out;
}

/**
 * Model references in a shell script: `vllm serve MODEL`, `huggingface-cli download` / `hf download`,
 * TGI's launcher, llama.cpp's `-hf`, `docker run` of a vLLM or TGI image, `--model_name_or_path`-style
 * flags of any script, and `MODEL_ID=...` settings (paired with `REVISION=...` anywhere in the script).
 */
export function findShellReferences(text: string, syntax: ScanSyntax = "shell"): FoundReference[] {
  const env: Word[] = [];
  const out: FoundReference[] = [];
  for (const words of shellCommands(text)) {
    if (words[0]?.value === "export" || words[0]?.value === "declare") env.push(...words.slice(1));
    out.push(...argvReferences(words, syntax, env));
  }
  out.push(...envReferences(envEntries(env), syntax));
  return out;
}
