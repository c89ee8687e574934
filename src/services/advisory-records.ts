import { describeChanges } from "../core/advise/text.ts";
import type { Baseline, EstimateChange } from "../core/advise/types.ts";
import { buildOsvRecord, type OsvRecord } from "../core/osv/build.ts";

/** What the pipeline knows about an advisory when it (re)writes its OSV record. */
type AdvisoryFacts = {
  id: string;
  repo: string;
  introduced: string;
  parent: string | null;
  fixed: string | null;
  changes: EstimateChange[];
  baseline: Baseline;
  published: Date;
  modified: Date;
};

/** The advisory's OSV record, through the core builder; summary and details from describeChanges. */
export function buildAdvisoryRecord(f: AdvisoryFacts): Record<string, unknown> {
  const { summary, details } = describeChanges({
    repo: f.repo,
    introduced: f.introduced,
    parent: f.parent,
    changes: f.changes,
  });
  return buildOsvRecord({
    id: f.id,
    repo: f.repo,
    introducedSha: f.introduced,
    fixedSha: f.fixed,
    parentSha: f.parent,
    published: f.published,
    modified: f.modified,
    summary,
    details,
    changes: f.changes,
    baseline: f.baseline,
  });
}

/** Reads back from a stored record what closing it needs. */
export function factsOf(record: Record<string, unknown>): {
  changes: EstimateChange[];
  parent: string | null;
  baseline: Baseline;
} {
  const ds = (record as Partial<OsvRecord>).database_specific;
  return { changes: ds?.changes ?? [], parent: ds?.parent ?? null, baseline: ds?.baseline ?? {} };
}

/** The change kinds an advisory record is about (`database_specific.kinds`), for event filters. */
export function advisoryKinds(record: Record<string, unknown>): string[] {
  const ds = (record as Partial<OsvRecord>).database_specific;
  return Array.isArray(ds?.kinds) ? ds.kinds : [];
}
