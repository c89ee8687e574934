import { type Node, parseTree } from "jsonc-parser";
import { isModelKey, isRevisionKey } from "./config-keys.ts";
import { type EnvEntry, envReferences } from "./env-vars.ts";
import { parseRepoId } from "./repo-id.ts";
import type { FoundReference, PinEdit } from "./types.ts";

type Property = { key: string; value: Node };

function propertiesOf(obj: Node): Property[] {
  const out: Property[] = [];
  for (const prop of obj.children ?? []) {
    const [k, v] = prop.children ?? [];
    if (k?.type === "string" && v) out.push({ key: String(k.value), value: v });
  }
  return out;
}

/** A string node's value start when the value is verbatim in the source (no escapes). */
function valueStart(node: Node): number | null {
  return typeof node.value === "string" && node.value.length === node.length - 2 ? node.offset + 1 : null;
}

/** A sibling `"revision": "..."` (replaced by a pin) or `"revision": null` (PEFT's adapter_config.json). */
function revisionOf(props: Property[]): { revision: string | null; pin?: PinEdit } {
  const rev = props.find((p) => isRevisionKey(p.key))?.value;
  if (!rev) return { revision: null };
  if (rev.type === "null")
    return {
      revision: null,
      pin: { start: rev.offset, end: rev.offset + rev.length, before: '"', after: '"' },
    };
  const start = rev.type === "string" ? valueStart(rev) : null;
  if (start === null) return { revision: null };
  const value = String(rev.value);
  return { revision: value, pin: { start, end: start + value.length, before: "", after: "" } };
}

function modelProperties(props: Property[]): FoundReference[] {
  const rev = revisionOf(props);
  const out: FoundReference[] = [];
  for (const p of props) {
    if (!isModelKey(p.key)) continue;
    const values = p.value.type === "array" ? (p.value.children ?? []) : [p.value];
    for (const v of values) {
      const repo = v.type === "string" ? parseRepoId(String(v.value)) : null;
      const start = valueStart(v);
      if (!repo || start === null) continue;
      const found: FoundReference = {
        start,
        end: start + repo.length,
        repo,
        revision: rev.revision,
        syntax: "json",
        context: p.key,
      };
      if (rev.pin) found.pin = rev.pin;
      out.push(found);
    }
  }
  return out;
}

function envSettings(props: Property[]): EnvEntry[] {
  return props.flatMap((p) => {
    const start = p.value.type === "string" ? valueStart(p.value) : null;
    if (start === null) return [];
    return [
      {
        key: p.key,
        value: String(p.value.value),
        start: p.value.offset,
        end: p.value.offset + p.value.length,
        valueStart: start,
      },
    ];
  });
}

function walk(node: Node | undefined, out: FoundReference[]): void {
  if (!node) return;
  if (node.type === "object") {
    const props = propertiesOf(node);
    out.push(...modelProperties(props), ...envReferences(envSettings(props), "json"));
    for (const p of props) walk(p.value, out);
  } else if (node.type === "array") for (const c of node.children ?? []) walk(c, out);
}

/**
 * Model references in JSON (comments allowed): model-named properties (`base_model_name_or_path` in a
 * PEFT adapter config, `model_name_or_path` in a training config, ...) with a sibling revision, and
 * environment-style settings (`"MODEL_ID": "..."`).
 */
export function findJsonReferences(text: string): FoundReference[] {
  const out: FoundReference[] = [];
  walk(parseTree(text, [], { allowTrailingComma: true, disallowComments: false }), out);
  return out;
}
