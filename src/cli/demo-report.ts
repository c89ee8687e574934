import { repoKind } from "../core/diff/repo-kind.ts";
import type { Db } from "../db/types.ts";
import { listAdvisoriesByRepo } from "../repositories/advisories-read.repository.ts";
import { listBehaviorChangesByRevision } from "../repositories/behavior-changes.repository.ts";
import { listChangesByRevision } from "../repositories/changes.repository.ts";
import { listFindings } from "../repositories/findings.repository.ts";
import { listRepos } from "../repositories/repos.repository.ts";
import { getManifest } from "../repositories/revision-files.repository.ts";
import { listRevisionsByRepo } from "../repositories/revisions-read.repository.ts";

type DemoCounts = {
  repos: { total: number; byStatus: Record<string, number> };
  /** Repos by kind (transformers, gguf, ...), from each repo's newest processed revision. */
  kinds: Record<string, number>;
  revisions: { total: number; byStatus: Record<string, number>; forcePushedAway: number };
  changes: Record<string, number>;
  promptChanges: { changed: number; unchanged: number };
  /** Behaviour changes per kind, and the prompt and EOS ones as "repo@sha: summary" lines. */
  behavior: Record<string, number>;
  promptEdits: string[];
  eosChanges: string[];
  advisories: { opened: number; open: number; closed: number };
  findings: Record<string, number>;
};

function bump(into: Record<string, number>, key: string): void {
  into[key] = (into[key] ?? 0) + 1;
}

/** Everything the demo summary counts, read back from the store. */
export async function countStore(db: Db): Promise<DemoCounts> {
  const out: DemoCounts = {
    repos: { total: 0, byStatus: {} },
    kinds: {},
    revisions: { total: 0, byStatus: {}, forcePushedAway: 0 },
    changes: {},
    promptChanges: { changed: 0, unchanged: 0 },
    behavior: {},
    promptEdits: [],
    eosChanges: [],
    advisories: { opened: 0, open: 0, closed: 0 },
    findings: {},
  };
  for (const repo of await listRepos(db)) {
    out.repos.total += 1;
    bump(out.repos.byStatus, repo.status);
    const newest = (await listRevisionsByRepo(db, repo.id, { status: "done", newestFirst: true }))[0];
    if (newest) bump(out.kinds, repoKind((await getManifest(db, newest.id)).map((f) => f.path)));
    for (const rev of await listRevisionsByRepo(db, repo.id, { includeForcePushedAway: true })) {
      out.revisions.total += 1;
      bump(out.revisions.byStatus, rev.status);
      if (rev.forcePushedAway) out.revisions.forcePushedAway += 1;
      for (const change of await listChangesByRevision(db, rev.id)) {
        bump(out.changes, change.category);
        if (change.promptChanged === true) out.promptChanges.changed += 1;
        if (change.promptChanged === false) out.promptChanges.unchanged += 1;
      }
      for (const b of await listBehaviorChangesByRevision(db, rev.id)) {
        bump(out.behavior, b.kind);
        const line = `${repo.name}@${rev.sha.slice(0, 7)}: ${b.summary}`;
        if (b.kind === "prompt") out.promptEdits.push(line);
        if (b.kind === "eos_token") out.eosChanges.push(line);
      }
    }
    for (const a of await listAdvisoriesByRepo(db, repo.id)) {
      out.advisories.opened += 1;
      if (a.status === "open") out.advisories.open += 1;
      else out.advisories.closed += 1;
    }
  }
  for (const f of await listFindings(db, { limit: 10_000 })) bump(out.findings, f.kind);
  return out;
}

/** Revisions processed so far (done or failed) and recorded in all, for the progress display. */
export async function progressCounts(db: Db): Promise<{ settled: number; total: number }> {
  let settled = 0;
  let total = 0;
  for (const repo of await listRepos(db)) {
    for (const rev of await listRevisionsByRepo(db, repo.id)) {
      total += 1;
      if (rev.status !== "pending") settled += 1;
    }
  }
  return { settled, total };
}

function secs(h: HubCost): string {
  return `${h.seconds.toFixed(1)} s`;
}

function pairs(record: Record<string, number>): string {
  const entries = Object.entries(record).sort(([a], [b]) => a.localeCompare(b));
  return entries.length === 0 ? "none" : entries.map(([k, v]) => `${k} ${v}`).join(", ");
}

export type HubCost = {
  requests: number;
  bytes: number;
  byRoute: Record<string, { requests: number; bytes: number }>;
  seconds: number;
};

/** The summary as printed lines. */
export function formatSummary(
  c: DemoCounts,
  hub: { first: HubCost; idle: HubCost & { repos: number }; update: HubCost; updateNote: string },
): string[] {
  const route = (h: HubCost) =>
    pairs(Object.fromEntries(Object.entries(h.byRoute).map(([k, v]) => [k, v.requests])));
  return [
    `repos        ${c.repos.total} (${pairs(c.repos.byStatus)})`,
    `repo kinds   ${pairs(c.kinds)}`,
    `revisions    ${c.revisions.total} (${pairs(c.revisions.byStatus)}; ${c.revisions.forcePushedAway} force-pushed away)`,
    `changes      ${pairs(c.changes)}`,
    `templates    ${c.promptChanges.changed} change(s) alter rendered prompts, ${c.promptChanges.unchanged} do not`,
    `behaviour    ${pairs(c.behavior)}`,
    ...c.promptEdits.map((l) => `  prompt     ${l}`),
    ...c.eosChanges.map((l) => `  eos        ${l}`),
    `advisories   ${c.advisories.opened} opened, ${c.advisories.closed} closed, ${c.advisories.open} open`,
    `findings     ${pairs(c.findings)}`,
    `hub, first   ${hub.first.requests} requests, ${hub.first.bytes} bytes (${route(hub.first)}) in ${secs(hub.first)}`,
    `hub, idle    ${hub.idle.requests} requests for ${hub.idle.repos} repos with nothing new (${route(hub.idle)}) in ${secs(hub.idle)}`,
    `hub, update  ${hub.update.requests} requests, ${hub.update.bytes} bytes for ${hub.updateNote} (${route(hub.update)}) in ${secs(hub.update)}`,
  ];
}
