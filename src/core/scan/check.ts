import { huggingfacePurl } from "../osv/build.ts";
import type { ModelReference } from "./types.ts";

/** An advisory whose range covers the revision a reference loads. */
export type AdvisoryHit = { id: string; summary: string | null; modified: string | null };

/**
 * checked: the revision was known and asked about; head-unknown: a floating reference to a repo whose
 * head the source does not know (not watched); unresolved: a tag, branch or short sha that could not
 * be turned into a commit; dynamic: the revision is an expression the scan cannot evaluate.
 */
export type CheckStatus = "checked" | "head-unknown" | "unresolved" | "dynamic";

export type CheckedReference = ModelReference & {
  /** The commit asked about: the pinned sha, the resolved tag or branch, or the head for a floating one. */
  sha: string | null;
  /** For a floating reference: the head to pin to. */
  pinTo: string | null;
  status: CheckStatus;
  advisories: AdvisoryHit[];
};

export type ScanReport = {
  /** "local store (PGlite in .hubwatch)" or the API's URL. */
  source: string;
  files: number;
  references: CheckedReference[];
  /** Problems that did not stop the scan (a tag the Hub does not know, ...). */
  warnings: string[];
};

export const FAIL_ON = ["advisory", "floating"] as const;
export type FailOn = (typeof FAIL_ON)[number];

/** What a reference needs resolved before it can be asked about. */
type Need =
  | { kind: "none"; sha: string }
  | { kind: "head" }
  | { kind: "ref"; ref: string }
  | { kind: "dynamic" };

export function needOf(ref: ModelReference): Need {
  if (ref.dynamicRevision) return { kind: "dynamic" };
  if (ref.floating) return { kind: "head" };
  if (ref.revisionKind === "sha" && ref.revision) return { kind: "none", sha: ref.revision.toLowerCase() };
  return { kind: "ref", ref: ref.revision ?? "" };
}

/** `repo@sha`, the key of one query. */
export function queryKey(repo: string, sha: string): string {
  return `${repo}@${sha}`;
}

/** One OSV query per distinct (repo, commit): `{package: {purl: "pkg:huggingface/OWNER/NAME@SHA"}}`. */
export function buildQueries(pairs: { repo: string; sha: string }[]): { keys: string[]; queries: object[] } {
  const keys = [...new Set(pairs.map((p) => queryKey(p.repo, p.sha)))];
  const queries = keys.map((k) => {
    const at = k.lastIndexOf("@");
    return { package: { purl: `${huggingfacePurl(k.slice(0, at))}@${k.slice(at + 1)}` } };
  });
  return { keys, queries };
}

/** The reference as checked, given the commit it resolved to and the advisories found there. */
export function checkedReference(
  ref: ModelReference,
  sha: string | null,
  advisories: AdvisoryHit[],
): CheckedReference {
  const need = needOf(ref);
  const status: CheckStatus =
    need.kind === "dynamic"
      ? "dynamic"
      : sha
        ? "checked"
        : need.kind === "head"
          ? "head-unknown"
          : "unresolved";
  return { ...ref, sha, pinTo: ref.floating ? sha : null, status, advisories };
}

/**
 * osv-scanner's convention: 0 clean, 1 findings of a kind listed in `failOn` (advisory hits, floating
 * references). Errors (2) are decided by the caller, which never gets a report then.
 */
export function exitCodeOf(report: ScanReport, failOn: readonly FailOn[]): 0 | 1 {
  const advisories = report.references.some((r) => r.advisories.length > 0);
  const floating = report.references.some((r) => r.floating);
  return (failOn.includes("advisory") && advisories) || (failOn.includes("floating") && floating) ? 1 : 0;
}
