/**
 * "Your adapter's base changed": when a base model's revision is processed with a change (files, estimate,
 * behaviour) or an advisory opened or closed, each adapter repo linked to it (src/db/schema/adapter-bases.ts)
 * gets a `base.changed` event, for the adapter's subscribers. Built in the base's advise transaction and
 * recorded there (the outbox), with the events of the base itself.
 */
import type { Executor } from "../db/types.ts";
import { type LinkedAdapter, listAdaptersOfBase } from "../repositories/adapter-bases.repository.ts";
import type { Repo } from "../repositories/repos.repository.ts";
import type { Revision } from "../repositories/revisions.repository.ts";
import type { PipelineServices } from "./deps.ts";
import type { OutboxEvent } from "./webhooks/outbox.ts";

type BaseAdvisories = { opened: string[]; closed: string[] };

/**
 * The base.changed events of a processed base revision: none when it changed nothing tracked and moved no
 * advisory, and none for an adapter whose naming revision is newer than the base revision (it was trained
 * on that base or a later one).
 */
export function baseChangedEvents(
  s: Pick<PipelineServices, "config">,
  adapters: LinkedAdapter[],
  base: Repo,
  revision: Revision,
  changed: OutboxEvent | null,
  advisories: BaseAdvisories,
): OutboxEvent[] {
  if (!changed && advisories.opened.length + advisories.closed.length === 0) return [];
  const out: OutboxEvent[] = [];
  for (const a of adapters) {
    if (a.repo.id === base.id) continue;
    if (a.committedAt && revision.committedAt && revision.committedAt <= a.committedAt) continue;
    const kinds = ["base", ...(changed?.kinds ?? [])];
    const what = typeof changed?.data.summary === "string" ? changed.data.summary : "advisories changed";
    out.push({
      type: "base.changed",
      repo: a.repo,
      subject: `${a.repo.name} base ${base.name}@${revision.sha}`,
      kinds,
      data: {
        adapter: a.repo.name,
        adapter_sha: a.sha,
        base: base.name,
        base_sha: revision.sha,
        base_title: revision.title ?? null,
        summary: `your adapter's base changed: ${base.name}@${revision.sha.slice(0, 7)}: ${what}`,
        kinds,
        advisories: { opened: advisories.opened, closed: advisories.closed },
        links: baseLinks(s, a.repo.name, base.name, revision.sha),
      },
    });
  }
  return out;
}

function baseLinks(s: Pick<PipelineServices, "config">, adapter: string, base: string, sha: string) {
  const site = s.config.PUBLIC_URL?.replace(/\/+$/, "") ?? "";
  return {
    adapter: `${site}/repos/${adapter}`,
    base_revision: `${site}/repos/${base}/revisions/${sha}`,
    commit: `${s.config.HF_ENDPOINT.replace(/\/+$/, "")}/${base}/commit/${sha}`,
  };
}

/**
 * The base.changed events of a base advisory changed by a force-push (withdrawn, or reopened): every linked
 * adapter hears of it, whenever the adapter was trained. Recorded in the force-push's transaction.
 */
export async function baseAdvisoryEvents(
  ex: Executor,
  base: Repo,
  advisory: { id: string; introducedSha: string },
  what: string,
): Promise<OutboxEvent[]> {
  const out: OutboxEvent[] = [];
  for (const a of await listAdaptersOfBase(ex, base.name)) {
    if (a.repo.id === base.id) continue;
    out.push({
      type: "base.changed",
      repo: a.repo,
      subject: `${a.repo.name} base ${base.name}@${advisory.introducedSha} ${what}`,
      kinds: ["base"],
      data: {
        adapter: a.repo.name,
        adapter_sha: a.sha,
        base: base.name,
        base_sha: advisory.introducedSha,
        summary: `your adapter's base changed: ${base.name} advisory ${advisory.id} ${what} (force-push)`,
        kinds: ["base"],
        advisories: { updated: [advisory.id] },
      },
    });
  }
  return out;
}
