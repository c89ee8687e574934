import { createHash } from "node:crypto";
import { parseSafetensorsPrefix, type SafetensorsTensor } from "../core/safetensors/header.ts";
import { type Ctx, sendError, sendJson } from "./http-util.ts";
import { entriesOf, entryOf, type RepoState } from "./repo-state.ts";
import type { Commit } from "./types.ts";

/** Keys accepted by `expand` (MODEL_EXPANDABLE_KEYS of @huggingface/hub plus Python's extra ones). */
export const EXPANDABLE = new Set([
  "author",
  "cardData",
  "config",
  "createdAt",
  "disabled",
  "downloads",
  "downloadsAllTime",
  "gated",
  "gitalyUid",
  "inferenceProviderMapping",
  "lastModified",
  "library_name",
  "likes",
  "model-index",
  "pipeline_tag",
  "private",
  "safetensors",
  "sha",
  "spaces",
  "tags",
  "transformersInfo",
  "siblings",
  "baseModels",
  "childrenModelCount",
  "evalResults",
  "gguf",
  "inference",
  "mask_token",
  "resourceGroup",
  "trendingScore",
  "usedStorage",
  "widgetData",
]);

const DEFAULT_FIELDS = [
  "author",
  "sha",
  "lastModified",
  "private",
  "gated",
  "disabled",
  "downloads",
  "likes",
  "library_name",
  "tags",
  "pipeline_tag",
  "createdAt",
  "siblings",
  "config",
  "safetensors",
  "cardData",
  "spaces",
];

function tensorsOf(commit: Commit, path: string): SafetensorsTensor[] {
  const e = entryOf(commit, path);
  if (!e || e.prefixLength < 8) return [];
  try {
    return parseSafetensorsPrefix(e.read(0, e.prefixLength)).tensors;
  } catch {
    return [];
  }
}

/** `safetensors` field as the Hub computes it: scalars per dtype over all stored tensors, and the total. */
function safetensorsSummary(commit: Commit) {
  const parameters: Record<string, number> = {};
  const files = entriesOf(commit).filter((e) => e.path.endsWith(".safetensors"));
  if (files.length === 0) return undefined;
  for (const f of files) {
    for (const t of tensorsOf(commit, f.path))
      parameters[t.dtype] = (parameters[t.dtype] ?? 0) + t.shape.reduce((a, b) => a * b, 1);
  }
  return { parameters, total: Object.values(parameters).reduce((a, b) => a + b, 0) };
}

function configOf(commit: Commit): unknown {
  const e = entryOf(commit, "config.json");
  if (!e) return undefined;
  try {
    const c = JSON.parse(e.read(0, e.size).toString("utf8")) as Record<string, unknown>;
    return { architectures: c.architectures, model_type: c.model_type, tokenizer_config: {} };
  } catch {
    return undefined;
  }
}

/** One model-info field of `state` at `commit` (undefined when the repo has no such value). */
export function modelField(state: RepoState, commit: Commit, key: string): unknown {
  const [owner] = state.spec.id.split("/");
  const first = state.history[0]!;
  const values: Record<string, () => unknown> = {
    author: () => owner,
    sha: () => commit.sha,
    lastModified: () => new Date(commit.date).toISOString(),
    createdAt: () => new Date(first.date).toISOString(),
    private: () => state.spec.private ?? false,
    gated: () => state.spec.gated ?? false,
    disabled: () => false,
    downloads: () => 1000,
    downloadsAllTime: () => 100000,
    likes: () => 10,
    library_name: () => state.spec.libraryName ?? "transformers",
    tags: () => state.spec.tags ?? ["transformers", "safetensors"],
    pipeline_tag: () => state.spec.pipelineTag ?? "text-generation",
    siblings: () => entriesOf(commit).map((e) => ({ rfilename: e.path })),
    config: () => configOf(commit),
    safetensors: () => safetensorsSummary(commit),
    usedStorage: () => entriesOf(commit).reduce((a, e) => a + e.size, 0),
    spaces: () => [],
    cardData: () => ({}),
  };
  return values[key]?.();
}

/** GET /api/models/:repo/revision/:rev?expand=... — only the requested fields (plus _id, id) when expanded. */
export function handleRevision(ctx: Ctx, state: RepoState, commit: Commit): void {
  const expand = ctx.url.searchParams.getAll("expand").concat(ctx.url.searchParams.getAll("expand[]"));
  const bad = expand.find((k) => !EXPANDABLE.has(k));
  if (bad) {
    sendError(ctx, 400, null, `"expand" must be one of the expandable fields, got "${bad}"`);
    return;
  }
  const keys = expand.length > 0 ? expand : DEFAULT_FIELDS;
  const body: Record<string, unknown> = {
    _id: createHash("md5").update(state.spec.id).digest("hex").slice(0, 24),
    id: state.spec.id,
  };
  if (expand.length === 0) body.modelId = state.spec.id;
  for (const k of keys) {
    const v = modelField(state, commit, k);
    if (v !== undefined) body[k] = v;
  }
  sendJson(ctx, 200, body);
}
