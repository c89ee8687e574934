import { readdirSync, readFileSync } from "node:fs";
import type { RenderTokens } from "../../src/core/diff/chat-render.ts";

const ROOT = new URL("../../fixtures/templates/", import.meta.url);

type TemplateFixture = {
  id: string;
  model: string;
  label: string;
  template: string;
  tokens: RenderTokens;
};

type VersionMeta = { label: string; bos_token: string | null; eos_token: string | null };

/** Every real template version under fixtures/templates, oldest first per model. */
export function templateFixtures(): TemplateFixture[] {
  const out: TemplateFixture[] = [];
  const models = readdirSync(ROOT, { withFileTypes: true }).filter((d) => d.isDirectory());
  for (const { name: model } of models.sort((a, b) => a.name.localeCompare(b.name))) {
    const meta = JSON.parse(readFileSync(new URL(`${model}/versions.json`, ROOT), "utf8")) as {
      versions: VersionMeta[];
    };
    for (const v of meta.versions) {
      const template = readFileSync(new URL(`${model}/${v.label}/chat_template.jinja`, ROOT), "utf8");
      const tokens: RenderTokens = {};
      if (v.bos_token !== null) tokens.bos_token = v.bos_token;
      if (v.eos_token !== null) tokens.eos_token = v.eos_token;
      out.push({ id: `${model}/${v.label}`, model, label: v.label, template, tokens });
    }
  }
  return out;
}
