import type { BehaviorChange, BehaviorSide, TemplateEdit } from "../core/diff/behavior.ts";
import { detectBehaviorChanges } from "../core/diff/behavior-detect.ts";
import { extractChatTemplates } from "../core/diff/chat-template.ts";
import type { TokenizerSummary } from "../core/diff/tokenizer.ts";
import type { NewChange } from "../repositories/changes.repository.ts";
import type { RevisionFiles } from "./change-builders.ts";
import { ggufBehaviorFacts, ggufHeaders, ggufServedTemplate } from "./gguf-changes.ts";
import { parseJson } from "./json-text.ts";
import { embeddingFacts } from "./sentence-transformers-files.ts";

const JSON_FILES = ["config.json", "generation_config.json", "tokenizer_config.json"] as const;

/**
 * The behaviour changes between a revision's files and its base's, given the file changes already
 * built (the chat-template verdicts come from there, so templates are rendered once). None when the
 * base held no model yet (no config.json, no tokenizer_config.json): a first upload changes no
 * behaviour, it introduces one.
 */
export function buildBehaviorChanges(
  before: RevisionFiles,
  after: RevisionFiles,
  changes: NewChange[],
): BehaviorChange[] {
  const model = (files: RevisionFiles) =>
    files.has("config.json") || files.has("tokenizer_config.json") || ggufHeaders(files).length > 0;
  if (!model(before)) return [];
  return detectBehaviorChanges(side(before), side(after), templateEdits(changes));
}

function side(files: RevisionFiles): BehaviorSide {
  const out: BehaviorSide = { files: {}, templates: {} };
  for (const path of JSON_FILES) {
    const f = files.get(path);
    if (!f) out.files[path] = null;
    else {
      const parsed = parseJson(f.content);
      // Not fetched, not JSON or not an object: unknown, so never compared.
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
        out.files[path] = parsed as Record<string, unknown>;
      }
    }
  }
  const tok = files.get("tokenizer.json");
  if (!tok) out.tokenizer = null;
  else {
    const summary = parseJson(tok.content) as TokenizerSummary | undefined;
    if (summary && Array.isArray(summary.added_tokens)) out.tokenizer = summary;
  }
  const texts = [...files.entries()].flatMap(([path, f]) =>
    f.content === null ? [] : [{ path, text: f.content }],
  );
  out.templates = { ...extractChatTemplates(texts), ...ggufServedTemplate(files) };
  const gguf = ggufBehaviorFacts(files);
  if (gguf) out.files["*.gguf"] = gguf;
  const embedding = embeddingFacts(files);
  if (embedding) out.files["sentence-transformers"] = embedding;
  return out;
}

/** Template edits that change a rendered prompt, or add or remove a template. */
function templateEdits(changes: NewChange[]): TemplateEdit[] {
  const out: TemplateEdit[] = [];
  for (const c of changes) {
    if (c.category !== "chat_template") continue;
    const name = c.path.replace(/^chat_template:/, "");
    if (c.kind !== "modified") out.push({ name, status: c.kind, changed: [] });
    else if (c.detail?.type === "chat_template" && c.detail.prompt.verdict === "changed") {
      out.push({ name, status: "modified", changed: c.detail.prompt.changed });
    }
  }
  return out;
}
