import { existsSync } from "node:fs";
import { open, readdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, join, relative, resolve } from "node:path";
import ignoreModule, { type Ignore } from "ignore";
import { type FileKind, fileKind } from "../../core/scan/file-kind.ts";

// `ignore` is CommonJS; under NodeNext its default export can arrive as the module object.
const createIgnore = ((ignoreModule as unknown as { default?: typeof ignoreModule }).default ??
  ignoreModule) as unknown as () => Ignore;

/** Folders of other people's code or of tools, never the codebase's own references. */
const VENDORED = new Set([
  ".git",
  ".hg",
  ".svn",
  "node_modules",
  "bower_components",
  "vendor",
  "vendors",
  "third_party",
  "third-party",
  "site-packages",
  ".venv",
  "venv",
  "__pycache__",
  ".tox",
  ".nox",
  ".mypy_cache",
  ".pytest_cache",
  ".ruff_cache",
]);

/** Larger files are generated data, not code or config (1 MiB). */
const MAX_FILE_BYTES = 1 << 20;

type WalkedFile = { path: string; kind: FileKind; text: string };
export type WalkStats = {
  files: number;
  bytes: number;
  ignored: number;
  vendored: number;
  binary: number;
  large: number;
};

type Rules = { base: string; ig: Ignore }[];

async function rulesIn(dir: string): Promise<Rules> {
  const text = await readFile(join(dir, ".gitignore"), "utf8").catch(() => null);
  return text === null ? [] : [{ base: dir, ig: createIgnore().add(text) }];
}

/** The `.gitignore` files from the enclosing git work tree's root down to `dir` (exclusive). */
async function ancestorRules(dir: string): Promise<Rules> {
  const chain: string[] = [];
  for (let d = dirname(dir); ; d = dirname(d)) {
    chain.unshift(d);
    if (existsSync(join(d, ".git")) || dirname(d) === d) break;
  }
  if (!existsSync(join(chain[0] ?? "/", ".git"))) return [];
  return (await Promise.all(chain.map(rulesIn))).flat();
}

function isIgnored(rules: Rules, path: string, dir: boolean): boolean {
  let ignored = false;
  for (const r of rules) {
    const rel = relative(r.base, path);
    if (!rel || rel.startsWith("..")) continue;
    const verdict = r.ig.test(dir ? `${rel}/` : rel);
    if (verdict.ignored) ignored = true;
    else if (verdict.unignored) ignored = false;
  }
  return ignored;
}

async function firstLine(path: string): Promise<string> {
  const fh = await open(path, "r");
  try {
    const buf = Buffer.alloc(200);
    const { bytesRead } = await fh.read(buf, 0, 200, 0);
    return buf.subarray(0, bytesRead).toString("utf8").split("\n")[0] ?? "";
  } finally {
    await fh.close();
  }
}

/** Reads a file the scan wants: known kind, not too large, not binary (a NUL byte in the first 8 KiB). */
async function readScannable(path: string, stats: WalkStats): Promise<WalkedFile | null> {
  const name = basename(path);
  const kind = fileKind(name, name.includes(".") ? "" : await firstLine(path).catch(() => ""));
  if (!kind) return null;
  const info = await stat(path);
  if (info.size > MAX_FILE_BYTES) {
    stats.large += 1;
    return null;
  }
  const buf = await readFile(path);
  if (buf.subarray(0, 8192).includes(0)) {
    stats.binary += 1;
    return null;
  }
  stats.files += 1;
  stats.bytes += buf.length;
  return { path, kind, text: buf.toString("utf8") };
}

async function* walkDir(dir: string, rules: Rules, stats: WalkStats): AsyncGenerator<WalkedFile> {
  const here = [...rules, ...(await rulesIn(dir))];
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory() && VENDORED.has(e.name)) stats.vendored += 1;
    else if (isIgnored(here, path, e.isDirectory())) stats.ignored += 1;
    else if (e.isDirectory()) yield* walkDir(path, here, stats);
    else if (e.isFile()) {
      const file = await readScannable(path, stats);
      if (file) yield file;
    }
  }
}

/**
 * The files under `paths` that the scan reads, in a stable order: `.gitignore` rules (of the
 * enclosing work tree and below) respected, vendored folders, binary and large files skipped. A file
 * named directly is read even if ignored.
 */
export async function* walkFiles(paths: string[], stats: WalkStats): AsyncGenerator<WalkedFile> {
  for (const p of paths) {
    const path = resolve(p);
    const info = await stat(path);
    if (info.isDirectory()) yield* walkDir(path, await ancestorRules(path), stats);
    else {
      const file = await readScannable(path, stats);
      if (file) yield file;
    }
  }
}

export function emptyStats(): WalkStats {
  return { files: 0, bytes: 0, ignored: 0, vendored: 0, binary: 0, large: 0 };
}
