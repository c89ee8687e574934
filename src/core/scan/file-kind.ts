/** What a file is read as; null: not scanned. */
export type FileKind =
  | "python"
  | "js"
  | "jsx"
  | "ts"
  | "tsx"
  | "shell"
  | "dockerfile"
  | "yaml"
  | "toml"
  | "json"
  | "dotenv"
  | "markdown";

const BY_EXTENSION: Record<string, FileKind> = {
  py: "python",
  pyi: "python",
  js: "js",
  mjs: "js",
  cjs: "js",
  jsx: "jsx",
  ts: "ts",
  mts: "ts",
  cts: "ts",
  tsx: "tsx",
  sh: "shell",
  bash: "shell",
  zsh: "shell",
  dockerfile: "dockerfile",
  containerfile: "dockerfile",
  yml: "yaml",
  yaml: "yaml",
  toml: "toml",
  json: "json",
  jsonc: "json",
  env: "dotenv",
  md: "markdown",
  mdx: "markdown",
  markdown: "markdown",
};

/** Lock files and generated bundles: large, machine-written, never where a codebase names its models. */
const SKIPPED_NAMES =
  /^(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|poetry\.lock|uv\.lock|Pipfile\.lock|composer\.lock|Cargo\.lock|tokenizer\.json|vocab\.json)$|\.min\.(js|css)$/;

/**
 * How to read a file, by its name (and a shebang for files without an extension): `Dockerfile`,
 * `Dockerfile.gpu`, `Containerfile`; `.env`, `.env.local`, `prod.env`; Python, JS/TS, shell, YAML, TOML,
 * JSON and Markdown by extension. Null for anything else, and for lock files and minified bundles.
 */
export function fileKind(name: string, firstLine = ""): FileKind | null {
  if (SKIPPED_NAMES.test(name)) return null;
  if (/^(Dockerfile|Containerfile)(\..+)?$/i.test(name)) return "dockerfile";
  if (/^\.env(\..+)?$/.test(name)) return "dotenv";
  const dot = name.lastIndexOf(".");
  const ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
  const kind = BY_EXTENSION[ext];
  if (kind) return kind;
  if (ext === "" && /^#!.*\b(ba|z)?sh\b/.test(firstLine)) return "shell";
  if (ext === "" && /^#!.*\bpython/.test(firstLine)) return "python";
  return null;
}
