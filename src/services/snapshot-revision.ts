import { isPipelinePaths, selectPipelineWeights } from "../core/diff/diffusers.ts";
import { classifyPath, isTrackedPath } from "../core/diff/paths.ts";
import { summarizeTokenizer } from "../core/diff/tokenizer.ts";
import { selectWeightFiles, WEIGHT_INDEX_PATH } from "../core/diff/weight-files.ts";
import type { ArtifactKind } from "../db/schema/index.ts";
import { getArtifacts, hashContent, putArtifacts } from "../repositories/artifacts.repository.ts";
import type { Repo } from "../repositories/repos.repository.ts";
import {
  getManifests,
  type ManifestEntry,
  replaceManifest,
} from "../repositories/revision-files.repository.ts";
import type { Revision } from "../repositories/revisions.repository.ts";
import { withTransaction } from "../repositories/transaction.ts";
import type { PipelineServices } from "./deps.ts";
import { isGgufPath } from "./gguf-changes.ts";
import { BadUpstreamDataError, hubErrorKind } from "./hub-errors.ts";
import { type HubFile, MAX_TEXT_BYTES } from "./hub-port.ts";
import { recordFinding } from "./record-finding.ts";

const PARALLEL_FETCHES = 4;

/** Weight files read by their header only (range requests), whatever their size. */
function isHeaderRead(path: string): boolean {
  return path.endsWith(".safetensors") || isGgufPath(path);
}

type Fetched = { content: string; kind: ArtifactKind };

/**
 * Stores a revision's file manifest (every path with its oid) and the content of its tracked files as
 * artifacts. Only files whose oid differs from the base revision's manifest are fetched: unchanged ones
 * reuse the base's artifact. Weights are read by their safetensors header only (range requests).
 * Idempotent: a revision that already has a manifest is left as it is. Returns the files fetched.
 */
export async function snapshotRevision(
  s: PipelineServices,
  repo: Repo,
  revision: Revision,
  base: Revision | null,
): Promise<number> {
  const manifests = await getManifests(s.db, base ? [revision.id, base.id] : [revision.id]);
  if ((manifests.get(revision.id)?.length ?? 0) > 0) return 0;
  const tree = await s.hub.listTree({ repo: repo.name, sha: revision.sha });
  const previous = new Map((base ? (manifests.get(base.id) ?? []) : []).map((f) => [f.path, f]));
  const entries: ManifestEntry[] = [];
  const toFetch: HubFile[] = [];
  const skipped: HubFile[] = [];
  const pipeline = isPipelinePaths(tree.map((f) => f.path));
  const tracked = (path: string) => isTrackedPath(path, pipeline);
  for (const file of tree) {
    const entry = {
      path: file.path,
      oid: file.oid,
      size: file.size,
      lfsOid: file.lfsOid,
      artifactHash: null,
    };
    const prev = previous.get(file.path);
    if (tracked(file.path) && prev?.oid === file.oid && prev.artifactHash) {
      entries.push({ ...entry, artifactHash: prev.artifactHash });
    } else {
      // Weights are read by header only, whatever their size; text files over the cap are skipped.
      const fetchable = isHeaderRead(file.path) || file.size <= MAX_TEXT_BYTES;
      if (tracked(file.path) && fetchable) toFetch.push(file);
      else if (tracked(file.path)) skipped.push(file);
      entries.push(entry);
    }
  }
  const weights = await followWeightIndex(s, repo.name, revision.sha, tree, previous);
  const reading = toFetch.filter(
    (f) =>
      (!f.path.endsWith(".safetensors") || weights.model.has(f.path)) &&
      !(f.path === WEIGHT_INDEX_PATH && weights.fetchedIndex),
  );
  const fetched = await fetchAll(s, repo.name, revision.sha, reading);
  if (weights.fetchedIndex) fetched.set(WEIGHT_INDEX_PATH, weights.fetchedIndex);
  await withTransaction(s.db, async (tx) => {
    const stored = entries.filter((e) => fetched.has(e.path));
    const hashes = await putArtifacts(
      tx,
      stored.map((e) => fetched.get(e.path)!),
    );
    stored.forEach((entry, i) => {
      entry.artifactHash = hashes[i]!;
    });
    await replaceManifest(tx, revision.id, entries);
    // A tracked file too large to read is not a failed revision, but a reader must be told it was not compared.
    for (const file of skipped) {
      const message = `${file.path} is ${file.size} bytes, over the ${MAX_TEXT_BYTES}-byte limit: not read`;
      await recordFinding(tx, { repoId: repo.id, sha: revision.sha, kind: "too_large", message });
    }
  });
  return fetched.size;
}

/**
 * Index-following: which *.safetensors of the tree are the model's weights, so that only their headers
 * are read. The index's text is the base revision's artifact when its oid is unchanged, else it is
 * fetched here (and returned, so it is not fetched twice). Files outside the index (consolidated.safetensors,
 * original/) stay in the manifest, unread: another format of the same weights, not more weights. A diffusers
 * pipeline's weights are one file set per component folder (src/core/diff/diffusers.ts), chosen by path.
 */
async function followWeightIndex(
  s: PipelineServices,
  repo: string,
  sha: string,
  tree: HubFile[],
  previous: Map<string, ManifestEntry>,
): Promise<{ model: Set<string>; fetchedIndex: Fetched | null }> {
  const paths = tree.map((f) => f.path);
  if (isPipelinePaths(paths)) {
    const { components } = selectPipelineWeights(paths);
    return { model: new Set(Object.values(components).flat()), fetchedIndex: null };
  }
  const index = tree.find((f) => f.path === WEIGHT_INDEX_PATH);
  const prev = index ? previous.get(index.path) : undefined;
  let text: string | null = null;
  let fetchedIndex: Fetched | null = null;
  if (index && prev?.oid === index.oid && prev.artifactHash) {
    text = (await getArtifacts(s.db, [prev.artifactHash])).get(prev.artifactHash)?.content ?? null;
  } else if (index) {
    fetchedIndex = await fetchOne(s, repo, sha, index);
    text = fetchedIndex?.content ?? null;
  }
  const { model } = selectWeightFiles(paths, text);
  return { model: new Set(model), fetchedIndex };
}

async function fetchAll(
  s: PipelineServices,
  repo: string,
  sha: string,
  files: HubFile[],
): Promise<Map<string, Fetched>> {
  const out = new Map<string, Fetched>();
  const queue = [...files];
  // On the first error the other fetchers stop taking files, and all are awaited before it is rethrown:
  // no request of a failed snapshot outlives it.
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      try {
        const got = await fetchOne(s, repo, sha, file);
        if (got) out.set(file.path, got);
      } catch (err) {
        queue.length = 0;
        throw err;
      }
    }
  };
  const results = await Promise.allSettled(Array.from({ length: PARALLEL_FETCHES }, worker));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
  return out;
}

async function fetchOne(
  s: PipelineServices,
  repo: string,
  sha: string,
  file: HubFile,
): Promise<Fetched | null> {
  try {
    return await readFile(s, repo, sha, file);
  } catch (err) {
    throw asFinding(err, file.path);
  }
}

/** Bad data in a file becomes a finding named after what the file is (config, header, tokenizer...). */
function asFinding(err: unknown, path: string): unknown {
  if (hubErrorKind(err) !== "bad_data") return err;
  const message = err instanceof Error ? err.message : String(err);
  if ((err as { code?: unknown }).code === "TooLarge") return new BadUpstreamDataError("too_large", message);
  const category = classifyPath(path);
  if (category === "weights") return new BadUpstreamDataError("bad_header", message);
  if (category === "tokenizer") return new BadUpstreamDataError("bad_tokenizer", message);
  if (category === "chat_template") return new BadUpstreamDataError("bad_template", message);
  if (category === "config" || category === "generation_config")
    return new BadUpstreamDataError("bad_config", message);
  return err;
}

async function readFile(
  s: PipelineServices,
  repo: string,
  sha: string,
  file: HubFile,
): Promise<Fetched | null> {
  if (file.path.endsWith(".safetensors")) {
    const header = await s.hub.readWeightHeader({ repo, sha, path: file.path });
    return { content: JSON.stringify(header), kind: "weights_header" };
  }
  if (isGgufPath(file.path)) {
    const header = await s.hub.readGgufHeader({ repo, sha, path: file.path });
    return { content: JSON.stringify(header), kind: "weights_header" };
  }
  const text = await s.hub.downloadText({ repo, sha, path: file.path, size: file.size });
  if (text === null) return null;
  if (file.path === "tokenizer.json")
    return { content: JSON.stringify(tokenizerSummary(file.path, text)), kind: "tokenizer_summary" };
  return { content: text, kind: file.path.endsWith(".json") ? "json" : "text" };
}

/** tokenizer.json is kept as its hash and a summary (it is often 10+ MB of vocabulary). */
function tokenizerSummary(path: string, text: string): unknown {
  try {
    return { sha256: hashContent(text), ...summarizeTokenizer(text) };
  } catch (err) {
    throw new BadUpstreamDataError(
      "bad_tokenizer",
      `${path}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}
