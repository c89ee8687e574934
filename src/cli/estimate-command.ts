/**
 * `hubwatch estimate PATH|OWNER/NAME[@REV] [--json|--markdown [--full]]`: PATH is a config.json, or a folder
 * holding config.json and optionally model.safetensors.index.json, *.safetensors (only the header is read) and
 * *.safetensors.header.json; OWNER/NAME[@REV] (when no such local path exists) reads the repo from the Hub
 * (HF_ENDPOINT, HF_TOKEN): config.json, the index and the shards' headers, never a weight body. A FILE.gguf,
 * a folder of .gguf files (no config.json) or a Hub repo of .gguf files is estimated from the GGUF headers; a
 * diffusers pipeline (a folder or Hub repo with model_index.json) per component (estimate-diffusers.ts).
 * Exit 0 on success, 2 on bad input (one line on stderr, never a stack trace), 1 on anything unexpected.
 */
import { open, readdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { EstimatorInputError } from "../core/estimator/config-view.ts";
import type { DiffusersEstimate } from "../core/estimator/diffusers.ts";
import { ESTIMATOR_VERSION, type Estimate, estimate } from "../core/estimator/estimate.ts";
import { estimateGgufRepo } from "../core/estimator/gguf/repo-estimate.ts";
import type { GgufHeader } from "../core/estimator/gguf/types.ts";
import { formatDelta, formatGb, formatParams, renderMarkdown } from "../core/estimator/markdown.ts";
import type { CheckpointInput, TensorHeader } from "../core/estimator/types.ts";
import {
  parseSafetensorsHeader,
  readSafetensorsHeaderObject,
  SafetensorsHeaderError,
  safetensorsHeaderLength,
} from "../core/safetensors/header.ts";
import type { HubOptions } from "../hub/index.ts";
import {
  diffusersMarkdown,
  diffusersSummary,
  readHubDiffusers,
  readLocalDiffusers,
} from "./estimate-diffusers.ts";
import {
  ggufMarkdown,
  ggufName,
  ggufSummary,
  isGgufFile,
  readHubGguf,
  readLocalGguf,
  readLocalGgufFolder,
} from "./estimate-gguf.ts";
import { HubInputError, parseRepoRef, readHubFiles } from "./estimate-hub.ts";

/** Largest safetensors header we read (bytes); real headers are well under a few MB. */
const MAX_HEADER_BYTES = 64 * 1024 * 1024;

export type EstimateIo = {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
  readFile(path: string): Promise<string>;
  /** The first `bytes` bytes of a file (fewer at its end). */
  readHead(path: string, bytes: number): Promise<Uint8Array>;
  readDir(path: string): Promise<string[]>;
  isDirectory(path: string): Promise<boolean>;
};

/** The real filesystem and process streams. */
export function nodeEstimateIo(): EstimateIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    readFile: (p) => readFile(p, "utf8"),
    readHead: async (p, bytes) => {
      const fh = await open(p, "r");
      try {
        const buf = new Uint8Array(bytes);
        const { bytesRead } = await fh.read(buf, 0, bytes, 0);
        return buf.subarray(0, bytesRead);
      } finally {
        await fh.close();
      }
    },
    readDir: (p) => readdir(p),
    isDirectory: async (p) => (await stat(p)).isDirectory(),
  };
}

/** Bad input at the CLI level (unreadable file, malformed JSON): exit 2. */
class InputError extends Error {}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new InputError(`${what}: malformed JSON (${(err as Error).message})`);
  }
}

/** Tensors of one safetensors header object (skipping __metadata__). */
function tensorsOfHeader(header: unknown, what: string): TensorHeader[] {
  try {
    return readSafetensorsHeaderObject(header).tensors;
  } catch (err) {
    if (err instanceof SafetensorsHeaderError) throw new InputError(`${what}: ${err.message}`);
    throw err;
  }
}

async function safetensorsHeader(io: EstimateIo, path: string): Promise<TensorHeader[]> {
  try {
    const len = safetensorsHeaderLength(await io.readHead(path, 8), MAX_HEADER_BYTES);
    const bytes = await io.readHead(path, 8 + len);
    if (bytes.length < 8 + len) throw new InputError(`${path}: truncated header`);
    return parseSafetensorsHeader(bytes.subarray(8, 8 + len)).tensors;
  } catch (err) {
    if (err instanceof SafetensorsHeaderError) throw new InputError(`${path}: ${err.message}`);
    throw err;
  }
}

async function checkpointOf(
  io: EstimateIo,
  dir: string,
  names: string[],
): Promise<CheckpointInput | undefined> {
  const tensors: TensorHeader[] = [];
  for (const n of names.sort()) {
    const p = join(dir, n);
    if (n.endsWith(".safetensors")) tensors.push(...(await safetensorsHeader(io, p)));
    else if (n.endsWith(".safetensors.header.json"))
      tensors.push(...tensorsOfHeader(parseJson(await io.readFile(p), p), p));
  }
  if (tensors.length > 0) return { tensors };
  if (!names.includes("model.safetensors.index.json")) return undefined;
  const p = join(dir, "model.safetensors.index.json");
  const index = parseJson(await io.readFile(p), p) as { metadata?: { total_size?: unknown } };
  const size = index?.metadata?.total_size;
  if (typeof size !== "number" || !Number.isFinite(size) || size <= 0)
    throw new InputError(`${p}: metadata.total_size missing or not a positive number`);
  return { indexTotalSizeBytes: size };
}

/**
 * The page title: the config's `_name_or_path` when it is a repo id, else the folder's name read as
 * owner__name (fixtures/models/Qwen__Qwen3-4B -> Qwen/Qwen3-4B; a further __suffix is a variant, left out).
 */
function displayName(dir: string, config: unknown): string {
  const named = (config as { _name_or_path?: unknown } | null)?._name_or_path;
  if (typeof named === "string" && /^[\w.-]+\/[\w.-]+$/.test(named)) return named;
  const [owner, name] = basename(dir).split("__");
  return name ? `${owner}/${name}` : (owner ?? dir);
}

function summary(e: Estimate, name: string): string {
  const m = e.memory;
  const lines = [
    `${name}: ${e.family} (${e.model_type}, ${e.reader.confidence} reader), ${formatParams(e.params.total)} parameters (${e.params.total})${e.params.active < e.params.total ? `, ${formatParams(e.params.active)} active` : ""}`,
    `weights ${formatGb(e.weights.bytes)} to serve${e.quantization ? ` (${e.quantization.method}, ${e.quantization.bits}-bit)` : ""}`,
    `full fine-tune ${formatGb(m.full_finetune.bytes_without_logits ?? m.full_finetune.bytes)} (+ logits ${formatGb(m.full_finetune.breakdown.logits ?? 0)}), LoRA ${formatGb(m.lora.bytes_without_logits ?? m.lora.bytes)}, serve ${formatGb(m.serve.bytes)} + KV ${formatGb(m.kv_cache.bytes)}/seq at ${m.kv_cache.tokens} tokens`,
  ];
  if (e.checkpoint)
    lines.push(
      `checkpoint: ${e.checkpoint.compared_total} compared scalars, delta ${formatDelta(e.checkpoint.delta)}`,
    );
  for (const r of e.fit) lines.push(`  ${r.card.padEnd(18)} ${r.mode.padEnd(14)} ${r.text}`);
  for (const w of e.warnings) lines.push(`warning: ${w}`);
  return `${lines.join("\n")}\n`;
}

type EstimateOptions = { json?: boolean; markdown?: boolean; full?: boolean };

/** What an estimate is made from: a config (+ checkpoint headers), or GGUF headers (`gguf`, config unused). */
type Loaded = {
  config: unknown;
  checkpoint: CheckpointInput | undefined;
  name: string;
  gguf?: [string, GgufHeader][];
  /** A diffusers pipeline, already estimated per component. */
  pipeline?: DiffusersEstimate;
};

/** A folder with model_index.json: a diffusers pipeline. */
async function loadLocalPipeline(io: EstimateIo, path: string, isDir: boolean): Promise<Loaded | null> {
  if (!isDir) return null;
  try {
    const pipeline = await readLocalDiffusers(path, await io.readDir(path), io, (p) =>
      safetensorsHeader(io, p),
    );
    return pipeline ? { config: null, checkpoint: undefined, name: displayName(path, null), pipeline } : null;
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError((err as Error).message);
  }
}

/** A .gguf file, or a folder holding .gguf files and no config.json: estimated from the GGUF headers. */
async function loadLocalGguf(io: EstimateIo, path: string, isDir: boolean): Promise<Loaded | null> {
  if (!isDir && !isGgufFile(path)) return null;
  const names = isDir ? await io.readDir(path) : [];
  if (isDir && (names.includes("config.json") || !names.some(isGgufFile))) return null;
  try {
    const gguf = isDir
      ? await readLocalGgufFolder(path, names)
      : [[ggufName(path), await readLocalGguf(path)]];
    return {
      config: null,
      checkpoint: undefined,
      name: ggufName(path),
      gguf: gguf as [string, GgufHeader][],
    };
  } catch (err) {
    throw new InputError((err as Error).message);
  }
}

async function loadLocal(io: EstimateIo, path: string, isDir: boolean): Promise<Loaded> {
  const dir = isDir ? path : dirname(path);
  const configPath = isDir ? join(path, "config.json") : path;
  const text = await io.readFile(configPath).catch(() => {
    throw new InputError(`${configPath}: cannot read`);
  });
  const config = parseJson(text, configPath);
  const checkpoint = isDir ? await checkpointOf(io, dir, await io.readDir(dir)) : undefined;
  return { config, checkpoint, name: displayName(dir, config) };
}

/** A local file or folder when one exists at `path`; else a Hub repo when `path` reads as OWNER/NAME[@REV]. */
async function load(io: EstimateIo, path: string, hub: () => HubOptions): Promise<Loaded> {
  const isDir = await io.isDirectory(path).catch(() => null);
  if (isDir !== null)
    return (
      (await loadLocalGguf(io, path, isDir)) ??
      (await loadLocalPipeline(io, path, isDir)) ??
      loadLocal(io, path, isDir)
    );
  const ref = /^[./~]|\.json$/.test(path) ? null : parseRepoRef(path);
  if (!ref) throw new InputError(`${path}: no such file or folder (nor OWNER/NAME[@REV])`);
  const files = await readHubFiles(ref, hub()).catch(async (err) => {
    // A repo without config.json may be a diffusers pipeline or a GGUF repo: their files are read instead.
    if (!(err instanceof HubInputError) || !/no config\.json/.test(err.message)) throw err;
    const pipeline = await readHubDiffusers(ref, hub()).catch((e: unknown) => {
      throw new HubInputError(`${ref.repo}@${ref.revision}: ${(e as Error)?.message ?? String(e)}`);
    });
    if (pipeline) return { pipeline };
    const gguf = await readHubGguf(ref, hub()).catch((e: unknown) => {
      throw new HubInputError(`${ref.repo}@${ref.revision}: ${(e as Error)?.message ?? String(e)}`);
    });
    if (!gguf) throw err;
    return { gguf };
  });
  const title = ref.revision === "main" ? ref.repo : `${ref.repo}@${ref.revision}`;
  if ("gguf" in files) return { config: null, checkpoint: undefined, name: title, gguf: files.gguf };
  if ("pipeline" in files)
    return { config: null, checkpoint: undefined, name: title, pipeline: files.pipeline };
  const config = parseJson(files.configText, `${ref.repo}@${ref.revision}/config.json`);
  return {
    config,
    checkpoint: files.tensors.length > 0 ? { tensors: files.tensors } : undefined,
    name: ref.revision === "main" ? ref.repo : `${ref.repo}@${ref.revision}`,
  };
}

/** Runs the command; returns the exit code. `hub`: the Hub's address and token (from the parsed config). */
export async function runEstimateCommand(
  path: string,
  opts: EstimateOptions,
  io: EstimateIo = nodeEstimateIo(),
  hub: () => HubOptions = () => ({}),
): Promise<number> {
  try {
    const { config, checkpoint, name, gguf, pipeline } = await load(io, path, hub);
    if (pipeline) {
      const out = opts.json
        ? `${JSON.stringify(pipeline, null, 2)}\n`
        : opts.markdown
          ? diffusersMarkdown(pipeline, name)
          : diffusersSummary(pipeline, name);
      io.stdout.write(out);
      return 0;
    }
    if (gguf) {
      const g = estimateGgufRepo(gguf, ESTIMATOR_VERSION);
      io.stdout.write(
        opts.json
          ? `${JSON.stringify(g, null, 2)}\n`
          : opts.markdown
            ? ggufMarkdown(g, name)
            : ggufSummary(g, name),
      );
      return 0;
    }
    const e = estimate(config, checkpoint ? { checkpoint } : {});
    io.stdout.write(
      opts.json
        ? `${JSON.stringify(e, null, 2)}\n`
        : opts.markdown
          ? renderMarkdown(e, name, { full: opts.full === true })
          : summary(e, name),
    );
    return 0;
  } catch (err) {
    if (err instanceof InputError || err instanceof EstimatorInputError || err instanceof HubInputError) {
      io.stderr.write(`hubwatch estimate: ${err.message}\n`);
      return 2;
    }
    io.stderr.write(`hubwatch estimate: unexpected error: ${(err as Error)?.message ?? String(err)}\n`);
    return 1;
  }
}
