import { describePromptVerdict, diffChatTemplate } from "../core/diff/chat-diff.ts";
import type { RenderTokens } from "../core/diff/chat-render.ts";
import type { NewChange } from "../repositories/changes.repository.ts";

/**
 * The change row of one named chat template between two revisions (`t0` before, `t1` after, undefined
 * where absent): added, removed, or modified with the rendered-prompt verdict. Null when it is the same.
 */
export function templateChange(
  name: string,
  t0: string | undefined,
  t1: string | undefined,
  tokens: { before: RenderTokens; after: RenderTokens },
): NewChange | null {
  if (t0 === t1) return null;
  const path = `chat_template:${name}`;
  if (t0 === undefined || t1 === undefined) {
    const kind = t0 === undefined ? "added" : "removed";
    return { path, category: "chat_template", kind, summary: `template "${name}" ${kind}`, detail: null };
  }
  const d = diffChatTemplate(t0, t1, tokens.before, tokens.after);
  return {
    path,
    category: "chat_template",
    kind: "modified",
    summary: `template "${name}" changed: ${describePromptVerdict(d)}`,
    detail: { type: "chat_template", ...d },
    promptChanged: d.promptChanged,
  };
}
