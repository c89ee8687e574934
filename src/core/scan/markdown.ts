import { parser } from "@lezer/markdown";
import type { FileKind } from "./file-kind.ts";
import { shiftFound } from "./found.ts";
import type { FoundReference } from "./types.ts";

/** Fence languages as READMEs label them; unlabeled fences are read as shell and Python. */
const FENCE_LANGUAGES: Record<string, FileKind> = {
  python: "python",
  py: "python",
  python3: "python",
  ipython: "python",
  pycon: "python",
  js: "js",
  javascript: "js",
  mjs: "js",
  jsx: "jsx",
  ts: "ts",
  typescript: "ts",
  tsx: "tsx",
  sh: "shell",
  bash: "shell",
  shell: "shell",
  zsh: "shell",
  console: "shell",
  "shell-session": "shell",
  terminal: "shell",
  dockerfile: "dockerfile",
  docker: "dockerfile",
  yaml: "yaml",
  yml: "yaml",
  toml: "toml",
  json: "json",
  jsonc: "json",
  env: "dotenv",
  dotenv: "dotenv",
};

type Finder = (kind: FileKind, text: string) => FoundReference[];

/** YAML front matter (`---` first line up to the next `---`): a model card's `base_model:`. */
function frontMatter(text: string): { from: number; to: number } | null {
  const m = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  return m ? { from: text.indexOf("\n") + 1, to: text.indexOf("\n") + 1 + (m[1]?.length ?? 0) } : null;
}

/**
 * Model references in Markdown: fenced code blocks read by their language (`python`, `bash`,
 * `yaml`, ...; unlabeled ones as shell and Python) and YAML front matter. Links in the prose are left to
 * the URL finder, which reads every file.
 */
export function findMarkdownReferences(text: string, find: Finder): FoundReference[] {
  const out: FoundReference[] = [];
  const front = frontMatter(text);
  if (front)
    out.push(...find("yaml", text.slice(front.from, front.to)).map((f) => shiftFound(f, front.from)));
  parser.parse(text).iterate({
    enter(ref) {
      if (ref.name !== "FencedCode") return;
      const info = ref.node.getChild("CodeInfo");
      const code = ref.node.getChild("CodeText");
      if (!code) return false;
      const lang = info ? (text.slice(info.from, info.to).trim().toLowerCase().split(/[\s{]/)[0] ?? "") : "";
      const kinds: FileKind[] = lang
        ? [FENCE_LANGUAGES[lang]].filter((k) => k !== undefined)
        : ["shell", "python"];
      const body = text.slice(code.from, code.to);
      for (const kind of kinds) out.push(...find(kind, body).map((f) => shiftFound(f, code.from)));
      return false;
    },
  });
  return out;
}
