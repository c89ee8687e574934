import { describeChanges } from "../core/advise/text.ts";
import type { Baseline, EstimateChange } from "../core/advise/types.ts";
import { osvTimestamp } from "../core/osv/id.ts";

/**
 * Builds the OSV record of an advisory. Interim builder in the pipeline's own code until the core OSV
 * builder (helper C, src/core/osv) lands; it produces the shape issue 3 fixes: GIT package with a purl,
 * a GIT range with 40-hex shas, every change with before/after and the baseline in database_specific.
 */
export type AdvisoryFacts = {
  id: string;
  repo: string;
  introduced: string;
  parent: string | null;
  fixed: string | null;
  changes: EstimateChange[];
  baseline: Baseline;
  published: Date;
  modified: Date;
  estimatorVersion: string;
};

export function buildAdvisoryRecord(f: AdvisoryFacts): Record<string, unknown> {
  const url = `https://huggingface.co/${f.repo}`;
  const { summary, details } = describeChanges({
    repo: f.repo,
    introduced: f.introduced,
    parent: f.parent,
    changes: f.changes,
  });
  const events: Record<string, string>[] = [{ introduced: f.introduced }];
  if (f.fixed) events.push({ fixed: f.fixed });
  return {
    schema_version: "1.7.0",
    id: f.id,
    modified: osvTimestamp(f.modified),
    published: osvTimestamp(f.published),
    summary,
    details,
    affected: [
      {
        package: { ecosystem: "GIT", name: url, purl: `pkg:huggingface/${f.repo}` },
        ranges: [{ type: "GIT", repo: url, events }],
      },
    ],
    references: [{ type: "WEB", url: `${url}/commit/${f.introduced}` }],
    database_specific: {
      repo: f.repo,
      parent: f.parent,
      estimator_version: f.estimatorVersion,
      changes: f.changes,
      baseline: f.baseline,
    },
  };
}

/** Reads the baseline back from a stored record (what restoring closes the advisory). */
export function baselineOf(record: Record<string, unknown>): Baseline {
  const ds = record.database_specific as { baseline?: Baseline } | undefined;
  return ds?.baseline ?? {};
}

export function factsOf(record: Record<string, unknown>): {
  changes: EstimateChange[];
  parent: string | null;
  estimatorVersion: string;
} {
  const ds = (record.database_specific ?? {}) as {
    changes?: EstimateChange[];
    parent?: string | null;
    estimator_version?: string;
  };
  return {
    changes: ds.changes ?? [],
    parent: ds.parent ?? null,
    estimatorVersion: ds.estimator_version ?? "",
  };
}
