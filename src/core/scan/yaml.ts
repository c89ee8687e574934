import { isMap, isScalar, isSeq, type Node, type Pair, parseAllDocuments, Scalar, type YAMLMap } from "yaml";
import { isModelKey, isRevisionKey } from "./config-keys.ts";
import { execInsert } from "./dockerfile.ts";
import { type EnvEntry, envReferences } from "./env-vars.ts";
import { parseRepoId } from "./repo-id.ts";
import { argvReferences, envEntries, IMAGE_TOOLS } from "./shell.ts";
import { shellCommands, shifted, type Word } from "./shell-words.ts";
import type { FoundReference, PinEdit } from "./types.ts";

/** Keys whose value is a command line (compose, Kubernetes, GitHub Actions, GitLab CI). */
const COMMAND_KEYS = new Set(["command", "entrypoint", "args", "run", "script", "cmd"]);
const ENV_KEYS = new Set(["environment", "env"]);

/** A scalar as a shell word; `valueStart` only when its value is verbatim in the source. */
function scalarWord(node: unknown, text: string): Word | null {
  if (!isScalar(node) || !node.range) return null;
  const value = typeof node.value === "string" ? node.value : String(node.value ?? "");
  const [from, to] = node.range;
  const quoted = node.type === Scalar.QUOTE_DOUBLE || node.type === Scalar.QUOTE_SINGLE;
  const start = quoted ? from + 1 : from;
  const verbatim = text.slice(start, start + value.length) === value;
  return { value, start: from, end: to, valueStart: verbatim ? start : null, dynamic: value.includes("${") };
}

function keyOf(pair: Pair): string {
  return isScalar(pair.key) ? String(pair.key.value) : "";
}

function pairsOf(map: YAMLMap): Pair[] {
  return map.items as Pair[];
}

/** `model_name_or_path: X` (or `base_model: [X, Y]`), pinned by a sibling `revision:`-style key. */
function modelKeys(map: YAMLMap, text: string): FoundReference[] {
  const revision = pairsOf(map).find((p) => isRevisionKey(keyOf(p)));
  const revWord = revision ? scalarWord(revision.value, text) : null;
  const out: FoundReference[] = [];
  for (const pair of pairsOf(map)) {
    const key = keyOf(pair);
    if (!isModelKey(key)) continue;
    const values = isSeq(pair.value) ? pair.value.items : [pair.value];
    for (const v of values) {
      const word = scalarWord(v, text);
      const repo = word ? parseRepoId(word.value) : null;
      if (!word || !repo) continue;
      const start = word.valueStart ?? word.start;
      const found: FoundReference = {
        start,
        end: word.valueStart === null ? word.end : start + repo.length,
        repo,
        revision: revWord && revWord.value !== "null" ? revWord.value : null,
        syntax: "yaml",
        context: key,
      };
      if (revWord?.valueStart != null) found.pin = replaceValue(revWord);
      out.push(found);
    }
  }
  return out;
}

function replaceValue(word: Word): PinEdit {
  const start = word.valueStart ?? word.start;
  return { start, end: start + word.value.length, before: "", after: "" };
}

/** `environment:` as a map (`MODEL_ID: X`) or a list (`- MODEL_ID=X`); Kubernetes `env: [{name, value}]`. */
function envSettings(node: unknown, text: string): EnvEntry[] {
  if (isMap(node)) {
    return pairsOf(node).flatMap((p) => {
      const w = scalarWord(p.value, text);
      return w && !w.dynamic
        ? [{ key: keyOf(p), value: w.value, start: w.start, end: w.end, valueStart: w.valueStart }]
        : [];
    });
  }
  if (!isSeq(node)) return [];
  const words = node.items.map((i) => scalarWord(i, text)).filter((w): w is Word => w !== null);
  const k8s = node.items.filter(isMap).flatMap((m) => {
    const name = scalarWord(m.get("name", true), text);
    const value = scalarWord(m.get("value", true), text);
    return name && value
      ? [
          {
            key: name.value,
            value: value.value,
            start: value.start,
            end: value.end,
            valueStart: value.valueStart,
          },
        ]
      : [];
  });
  return [...envEntries(words), ...k8s];
}

/** A command as a list (`["vllm", "serve", "X"]`) or as shell text (`run: |` blocks included). */
function commandReferences(node: unknown, text: string, image: string | null): FoundReference[] {
  const implied = image ? IMAGE_TOOLS.find(([re]) => re.test(image))?.[1] : undefined;
  const env: Word[] = [];
  if (isSeq(node)) {
    const words = node.items.map((i) => scalarWord(i, text));
    if (words.some((w) => w === null)) return [];
    // A flow list takes `, "--revision", "SHA"`; a block list would need new lines: not pinned.
    const insert = node.flow === true ? execInsert : null;
    return argvReferences(words as Word[], "yaml", env, { insert, ...(implied && { implied }) });
  }
  const word = scalarWord(node, text);
  if (!isScalar(node) || !word || !node.range) return [];
  const block = node.type === Scalar.BLOCK_LITERAL || node.type === Scalar.BLOCK_FOLDED;
  if (!block && word.valueStart === null) return [];
  const from = block ? node.range[0] : (word.valueStart as number);
  const source = text.slice(from, block ? node.range[1] : from + word.value.length);
  return shellCommands(source).flatMap((words) =>
    argvReferences(shifted(words, from), "yaml", env, implied ? { implied } : {}),
  );
}

function walk(node: Node | null | undefined, text: string, out: FoundReference[], entries: EnvEntry[]): void {
  if (isSeq(node)) {
    for (const item of node.items) walk(item as Node, text, out, entries);
    return;
  }
  if (!isMap(node)) return;
  out.push(...modelKeys(node, text));
  const image = scalarWord(node.get("image", true), text)?.value ?? null;
  for (const pair of pairsOf(node)) {
    const key = keyOf(pair);
    if (COMMAND_KEYS.has(key)) out.push(...commandReferences(pair.value, text, image));
    else if (ENV_KEYS.has(key)) entries.push(...envSettings(pair.value, text));
    else walk(pair.value as Node, text, out, entries);
  }
}

/**
 * Model references in YAML: model-named keys (`model_name_or_path`, `base_model`, ...) with a sibling
 * revision key, `environment`/`env` settings (compose, Kubernetes), and commands (`command`, `args`,
 * GitHub Actions `run`), including arguments of a vLLM or TGI container image.
 */
export function findYamlReferences(text: string): FoundReference[] {
  const out: FoundReference[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (!("contents" in doc)) continue;
    const entries: EnvEntry[] = [];
    walk(doc.contents as Node, text, out, entries);
    out.push(...envReferences(entries, "yaml"));
  }
  return out;
}
