import { type Node as JsonNode, parseTree } from "jsonc-parser";
import { type EnvEntry, envReferences } from "./env-vars.ts";
import { argvReferences, envEntries } from "./shell.ts";
import { shellCommands, shifted, type Word } from "./shell-words.ts";
import type { FoundReference, PinEdit } from "./types.ts";

/** One instruction: its keyword and the source range of its arguments (continuation lines included). */
type Instruction = { keyword: string; from: number; to: number };

function instructions(text: string): Instruction[] {
  const out: Instruction[] = [];
  const re = /^[ \t]*([A-Za-z]+)[ \t]+/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const from = m.index + m[0].length;
    let to = from;
    // A line ending in a backslash continues the instruction.
    for (;;) {
      const nl = text.indexOf("\n", to);
      to = nl < 0 ? text.length : nl;
      if (!/\\[ \t]*\r?$/.test(text.slice(from, to)) || nl < 0) break;
      to = nl + 1;
    }
    out.push({ keyword: (m[1] ?? "").toUpperCase(), from, to });
    re.lastIndex = to;
  }
  return out;
}

/** `["vllm", "serve", "Qwen/Qwen3-8B"]`: each string of the JSON array is a word. */
function jsonArgv(node: JsonNode | undefined, by: number): Word[] | null {
  if (node?.type !== "array") return null;
  const words: Word[] = [];
  for (const item of node.children ?? []) {
    if (item.type !== "string") return null;
    const value = String(item.value);
    const verbatim = value.length === item.length - 2;
    const start = item.offset + by;
    words.push({
      value,
      start,
      end: start + item.length,
      valueStart: verbatim ? start + 1 : null,
      dynamic: false,
    });
  }
  return words;
}

/** In a JSON array, `--revision SHA` goes in as two more strings after the model's. */
export function execInsert(at: number, flag: string): PinEdit {
  return { start: at, end: at, before: `, "${flag}", "`, after: '"' };
}

/** `ENV KEY=value ...`, or the legacy `ENV KEY value`. */
function envInstruction(text: string, ins: Instruction): EnvEntry[] {
  const words = shifted(shellCommands(text.slice(ins.from, ins.to)).flat(), ins.from);
  const first = words[0];
  if (!first) return [];
  if (first.value.includes("=")) return envEntries(words);
  const rest = words.slice(1);
  const last = rest.at(-1);
  if (!last) return [];
  const value = text.slice(rest[0]?.start ?? last.start, last.end);
  const single = rest.length === 1 ? last.valueStart : null;
  return [{ key: first.value, value, start: first.start, end: last.end, valueStart: single }];
}

/**
 * Model references in a Dockerfile: the commands of `RUN`, `CMD` and `ENTRYPOINT` (shell form, or exec
 * form as a JSON array), and `ENV` / `ARG` settings such as `MODEL_ID=...`.
 */
export function findDockerfileReferences(text: string): FoundReference[] {
  const out: FoundReference[] = [];
  const env: Word[] = [];
  const entries: EnvEntry[] = [];
  for (const ins of instructions(text)) {
    if (ins.keyword === "ENV" || ins.keyword === "ARG") {
      entries.push(...envInstruction(text, ins));
      continue;
    }
    if (!["RUN", "CMD", "ENTRYPOINT"].includes(ins.keyword)) continue;
    const body = text.slice(ins.from, ins.to);
    const exec = body.trimStart().startsWith("[") ? jsonArgv(parseTree(body), ins.from) : null;
    if (exec) {
      out.push(...argvReferences(exec, "dockerfile", env, { insert: execInsert }));
      continue;
    }
    for (const words of shellCommands(body))
      out.push(...argvReferences(shifted(words, ins.from), "dockerfile", env));
  }
  out.push(...envReferences([...entries, ...envEntries(env)], "dockerfile"));
  return out;
}
