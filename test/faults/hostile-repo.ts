/**
 * A replay-hub repo whose every upstream field that the pages can show carries markup: commit titles and
 * authors, config keys and values (before and after a change), generation config, tokenizer added tokens,
 * chat templates (in tokenizer_config.json and in an additional_chat_templates file whose *name* is
 * hostile), safetensors __metadata__. Processed by the real pipeline, then rendered by the real app.
 */
import { json, realConfig, tokenizerConfig, weights } from "../../src/replay-hub/fixtures/builder.ts";
import { makeTokenizer, type RepoSpec } from "../../src/replay-hub/index.ts";

export const HOSTILE_REPO = "evil-org/xss-model";

/** Each payload is unique so a test can tell which field leaked. */
export const PAYLOADS = {
  title: `<script>alert("xss-title")</script>`,
  author: `<img src=x onerror=alert("xss-author")>`,
  configValue: `"><script>alert("xss-config-value")</script>`,
  configValueAfter: `'><svg onload=alert("xss-config-after")>`,
  configKey: `<iframe src=javascript:alert("xss-config-key")>`,
  generation: `<script>alert("xss-generation")</script>`,
  token: `<script>alert("xss-token")</script>`,
  template: `<script>alert("xss-template")</script>`,
  templatePath: `<svg onload=alert("xss-template-path")>`,
  metadata: `</td><script>alert("xss-metadata")</script>`,
} as const;

export function hostileRepo(): RepoSpec {
  const { config } = realConfig("Qwen__Qwen3-0.6B");
  const before = { ...config, _name_or_path: PAYLOADS.configValue, [PAYLOADS.configKey]: 1 };
  const after = {
    ...before,
    _name_or_path: PAYLOADS.configValueAfter,
    num_hidden_layers: 30,
    [PAYLOADS.configKey]: 2,
  };
  const template = `{{ '${PAYLOADS.template}' }}{% for m in messages %}{{ m.content }}{% endfor %}`;
  const at = (h: number) => new Date(Date.UTC(2025, 6, 1, h)).toISOString();
  return {
    id: HOSTILE_REPO,
    commits: [
      { title: "initial commit", date: at(0), changes: { ".gitattributes": json({}) } },
      {
        title: PAYLOADS.title,
        date: at(1),
        authors: [PAYLOADS.author],
        changes: {
          "config.json": json(before),
          ...weights(config, { metadata: { format: "pt", note: PAYLOADS.metadata } }),
          "tokenizer.json": json(makeTokenizer({ vocabSize: 300, addedTokens: [PAYLOADS.token] })),
          "tokenizer_config.json": tokenizerConfig(template),
          "generation_config.json": json({ temperature: 0.6, comment: PAYLOADS.generation }),
          [`additional_chat_templates/${PAYLOADS.templatePath}.jinja`]: { kind: "text", text: template },
        },
      },
      {
        title: `${PAYLOADS.title} again`,
        date: at(2),
        authors: [PAYLOADS.author],
        changes: {
          "config.json": json(after),
          ...weights(after, { metadata: { format: "pt", note: `${PAYLOADS.metadata}2` } }),
          "tokenizer_config.json": tokenizerConfig(`${template}{{ '${PAYLOADS.template}' }}`),
          "generation_config.json": json({ temperature: 0.7, comment: `${PAYLOADS.generation}2` }),
        },
      },
    ],
  };
}
