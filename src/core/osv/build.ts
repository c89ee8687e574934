import { PackageURL } from "packageurl-js";
import type { Baseline, EstimateChange } from "../advise/types.ts";
import { osvTimestamp } from "./id.ts";

const OSV_SCHEMA_VERSION = "1.7.5";
const DEFAULT_HUB_URL = "https://huggingface.co";

export type OsvBuildInput = {
  /** From formatAdvisoryId. */
  id: string;
  /** "owner/name" on the Hub. */
  repo: string;
  /** Base URL of the Hub; default https://huggingface.co. */
  hubUrl?: string;
  /** Full 40-hex sha of the revision that introduced the changes. */
  introducedSha: string;
  /** Full sha of the revision that restored the baseline, once known. */
  fixedSha?: string | null;
  /** The introducing revision's parent (kept in database_specific for readers). */
  parentSha?: string | null;
  published: Date;
  modified: Date;
  summary: string;
  /** Markdown listing every change with before/after (advise's describeChanges). */
  details: string;
  changes: EstimateChange[];
  /** planAdvisory's baseline: stored so that closing is a pure function of the record. */
  baseline: Baseline;
};

export type OsvEvent = { introduced: string } | { fixed: string };

export type OsvRecord = {
  schema_version: string;
  id: string;
  modified: string;
  published: string;
  summary: string;
  details: string;
  affected: {
    package: { ecosystem: "GIT"; name: string; purl: string };
    ranges: { type: "GIT"; repo: string; events: OsvEvent[] }[];
    database_specific: { source: "hubwatch"; repo: string };
  }[];
  references: { type: "INTRODUCED" | "FIX" | "PACKAGE"; url: string }[];
  database_specific: {
    /** The advisory's first change kind (e.g. "params_total", "prompt", "eos_token"); `kinds` lists all. */
    kind: string | null;
    kinds: string[];
    changes: EstimateChange[];
    baseline: Baseline;
    parent: string | null;
  };
};

/**
 * An OSV record for one advisory on a Hub model repo: a GIT range on the repo's clone URL
 * (introduced, then fixed once the baseline is restored), a huggingface purl without version,
 * commit references, and the changes plus baseline in database_specific.
 */
export function buildOsvRecord(input: OsvBuildInput): OsvRecord {
  const hub = (input.hubUrl ?? DEFAULT_HUB_URL).replace(/\/+$/, "");
  const repoUrl = `${hub}/${input.repo}`;
  const events: OsvEvent[] = [{ introduced: input.introducedSha }];
  const references: OsvRecord["references"] = [
    { type: "INTRODUCED", url: `${repoUrl}/commit/${input.introducedSha}` },
  ];
  if (input.fixedSha) {
    events.push({ fixed: input.fixedSha });
    references.push({ type: "FIX", url: `${repoUrl}/commit/${input.fixedSha}` });
  }
  references.push({ type: "PACKAGE", url: repoUrl });
  return {
    schema_version: OSV_SCHEMA_VERSION,
    id: input.id,
    modified: osvTimestamp(input.modified),
    published: osvTimestamp(input.published),
    summary: input.summary,
    details: input.details,
    affected: [
      {
        package: { ecosystem: "GIT", name: repoUrl, purl: huggingfacePurl(input.repo, hub) },
        ranges: [{ type: "GIT", repo: repoUrl, events }],
        database_specific: { source: "hubwatch", repo: input.repo },
      },
    ],
    references,
    database_specific: {
      kind: input.changes[0]?.kind ?? null,
      kinds: [...new Set(input.changes.map((c) => c.kind))],
      changes: input.changes,
      baseline: input.baseline,
      parent: input.parentSha ?? null,
    },
  };
}

/** pkg:huggingface/OWNER/NAME (no version), with repository_url for a hub other than the default. */
export function huggingfacePurl(repo: string, hubUrl: string = DEFAULT_HUB_URL): string {
  const [owner = "", name = ""] = repo.split("/");
  const hub = hubUrl.replace(/\/+$/, "");
  const qualifiers = hub === DEFAULT_HUB_URL ? undefined : { repository_url: hub };
  return new PackageURL("huggingface", owner, name, undefined, qualifiers, undefined).toString();
}

/**
 * Reads back what planAdvisory needs from a stored record: id, introducing sha, baseline (and
 * the fixed sha, null while open).
 * Null when the record has no GIT introduced event or no baseline (not one of ours).
 */
export function openAdvisoryFromOsv(
  record: unknown,
): { id: string; introduced: string; fixed: string | null; baseline: Baseline } | null {
  const r = record as Partial<OsvRecord> | null;
  const events = r?.affected?.[0]?.ranges?.[0]?.events ?? [];
  const introduced = events.find((e): e is { introduced: string } => "introduced" in e)?.introduced;
  const fixed = events.find((e): e is { fixed: string } => "fixed" in e)?.fixed ?? null;
  const baseline = r?.database_specific?.baseline;
  if (typeof r?.id !== "string" || !introduced || !baseline || typeof baseline !== "object") return null;
  return { id: r.id, introduced, fixed, baseline };
}
