/** A repo file's path (relative to the repo root) and its text. */
type RepoTextFile = { path: string; text: string };

const ADDITIONAL = /^additional_chat_templates\/([^/]+)\.jinja$/;

/**
 * Collects a revision's chat templates by name ("default" for the unnamed one) from wherever
 * they live. Later sources win, in transformers' order of precedence: tokenizer_config.json's
 * `chat_template`, then chat_template.json, then chat_template.jinja and
 * additional_chat_templates/<name>.jinja. Unparseable JSON files contribute nothing (the JSON
 * diff records them).
 */
export function extractChatTemplates(files: RepoTextFile[]): Record<string, string> {
  const byPath = new Map(files.map((f) => [f.path, f.text]));
  const out: Record<string, string> = {};
  addFromJsonField(out, byPath.get("tokenizer_config.json"));
  addFromJsonField(out, byPath.get("chat_template.json"));
  const jinja = byPath.get("chat_template.jinja");
  if (jinja !== undefined) out.default = jinja;
  for (const f of files) {
    const name = ADDITIONAL.exec(f.path)?.[1];
    if (name) out[name] = f.text;
  }
  return out;
}

/** Reads `chat_template`: a string, or a list of {name, template}. */
function addFromJsonField(out: Record<string, string>, text: string | undefined): void {
  if (text === undefined) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return;
  }
  if (typeof parsed !== "object" || parsed === null) return;
  const field = (parsed as { chat_template?: unknown }).chat_template;
  if (typeof field === "string") {
    out.default = field;
    return;
  }
  if (!Array.isArray(field)) return;
  for (const item of field) {
    const { name, template } = (item ?? {}) as { name?: unknown; template?: unknown };
    if (typeof name === "string" && typeof template === "string") out[name] = template;
  }
}
