/** The safetensors index transformers writes beside sharded weights. */
export const WEIGHT_INDEX_PATH = "model.safetensors.index.json";

/** Weight sets published beside the transformers checkpoint (Mistral's consolidated files, Meta's original/). */
const ALTERNATE_SET = /^(original\/.*|consolidated(\.\d+)?\.safetensors)$/;

type WeightSelection = {
  /** The model's weights: what its headers are read from and its totals summed over. */
  model: string[];
  /** Other safetensors files (another format of the same weights): listed, never read or added. */
  other: string[];
  /** The index the selection followed, or null. */
  indexPath: string | null;
};

/** Shard names of an index's weight_map (unique, in first-seen order); null when it does not parse. */
function indexShards(indexText: string): string[] | null {
  try {
    const parsed = JSON.parse(indexText) as { weight_map?: unknown };
    const map = parsed?.weight_map;
    if (!map || typeof map !== "object" || Array.isArray(map)) return null;
    const names = Object.values(map as Record<string, unknown>);
    if (!names.every((n): n is string => typeof n === "string")) return null;
    return [...new Set(names)];
  } catch {
    return null;
  }
}

/**
 * Which safetensors files of a revision make up the model. With a parseable model.safetensors.index.json
 * (`indexText`), exactly the shards its weight_map names that exist in `paths`; without one, every
 * *.safetensors except alternate sets (consolidated*.safetensors, original/) when anything else remains.
 * Pure: paths are repo-relative, "/"-separated.
 */
export function selectWeightFiles(paths: string[], indexText: string | null): WeightSelection {
  const all = paths.filter((p) => p.endsWith(".safetensors"));
  const shards = indexText === null ? null : indexShards(indexText);
  if (shards) {
    const present = new Set(all);
    const model = shards.filter((s) => present.has(s));
    const chosen = new Set(model);
    return { model, other: all.filter((p) => !chosen.has(p)), indexPath: WEIGHT_INDEX_PATH };
  }
  const primary = all.filter((p) => !ALTERNATE_SET.test(p));
  const model = primary.length > 0 ? primary : all;
  const chosen = new Set(model);
  return { model, other: all.filter((p) => !chosen.has(p)), indexPath: null };
}
