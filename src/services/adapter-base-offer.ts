/**
 * Watching a PEFT adapter offers to watch its base: the base an adapter repo names, from the stored link
 * (src/db/schema/adapter-bases.ts) once a revision was processed, else from the Hub's adapter_config.json
 * at main (one request). Best effort: a repo that is not an adapter, or a Hub that does not answer, has no
 * offer, and the watch goes on.
 */
import { readAdapterConfig } from "../core/estimator/peft.ts";
import { getAdapterBase, listAdapterBases } from "../repositories/adapter-bases.repository.ts";
import { findRepoByNameCi } from "../repositories/repos.repository.ts";
import type { PipelineServices } from "./deps.ts";
import { parseJson } from "./json-text.ts";

type BaseOffer = { repo: string; watched: boolean };

type OfferStore = Pick<PipelineServices, "db"> & Partial<Pick<PipelineServices, "hub">>;

async function baseFromHub(s: OfferStore, name: string): Promise<string | null> {
  if (!s.hub) return null;
  try {
    const text = await s.hub.downloadText({ repo: name, sha: "main", path: "adapter_config.json" });
    const read = readAdapterConfig(parseJson(text));
    return "config" in read ? (read.config.base_model_name_or_path ?? null) : null;
  } catch {
    return null;
  }
}

/** The base of adapter repo `name` and whether it is watched; null when `name` is not a (known) adapter. */
export async function baseOffer(s: OfferStore, name: string): Promise<BaseOffer | null> {
  const repo = await findRepoByNameCi(s.db, name);
  const base = (repo ? await getAdapterBase(s.db, repo.id) : null) ?? (await baseFromHub(s, name));
  if (!base) return null;
  return { repo: base, watched: (await findRepoByNameCi(s.db, base)) !== null };
}

/** Every watched adapter's base, by adapter repo id (for the repo list). */
export async function adapterBasesByRepo(s: Pick<PipelineServices, "db">): Promise<Map<number, BaseOffer>> {
  const out = new Map<number, BaseOffer>();
  for (const link of await listAdapterBases(s.db)) {
    out.set(link.adapterRepoId, { repo: link.baseName, watched: link.baseWatched });
  }
  return out;
}
