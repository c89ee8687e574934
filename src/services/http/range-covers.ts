/**
 * Whether an OSV record's GIT ranges cover a commit, given the repo's linear revision order
 * (revisions.seq). Hub history is linear on main, so "ancestor of" becomes "lower seq than".
 * Events naming commits we never saw are ignored; "0" means before the first revision.
 */
type OsvEvent = { introduced?: string; fixed?: string; last_affected?: string; limit?: string };
type OsvRange = { type?: string; events?: OsvEvent[] };
type OsvAffected = { ranges?: OsvRange[]; versions?: string[] };

export function rangeCovers(
  record: { affected?: OsvAffected[] },
  seqOf: (sha: string) => number | undefined,
  commit: string,
): boolean {
  const target = seqOf(commit);
  if (target === undefined) return false;
  for (const affected of record.affected ?? []) {
    if (affected.versions?.some((v) => v.toLowerCase() === commit)) return true;
    for (const range of affected.ranges ?? []) {
      if (range.type === "GIT" && gitRangeCovers(range.events ?? [], seqOf, target)) return true;
    }
  }
  return false;
}

function gitRangeCovers(events: OsvEvent[], seqOf: (sha: string) => number | undefined, target: number) {
  const at = (sha: string) => (sha === "0" ? Number.NEGATIVE_INFINITY : seqOf(sha.toLowerCase()));
  const ordered = events
    .map((e) => {
      const [kind, sha] = Object.entries(e)[0] ?? ["", ""];
      return { kind, seq: at(String(sha)) };
    })
    .filter((e): e is { kind: string; seq: number } => e.seq !== undefined)
    .sort((a, b) => a.seq - b.seq);
  let affected = false;
  for (const e of ordered) {
    if (e.kind === "introduced" && e.seq <= target) affected = true;
    else if ((e.kind === "fixed" || e.kind === "limit") && e.seq <= target) affected = false;
    else if (e.kind === "last_affected" && e.seq < target) affected = false;
  }
  return affected;
}
