import type { Baseline, EstimateChange, OpenAdvisory, StateValue } from "./types.ts";

export type OpenAction = {
  type: "open";
  /** The revision that introduced the changes (the OSV `introduced` event). */
  introduced: string;
  /** Its parent, the last revision in the baseline state; null for a first revision. */
  parent: string | null;
  /** Every advisory-worthy change not already covered by an open advisory. */
  changes: EstimateChange[];
  /** Store in the advisory's database_specific; restoring all of it closes the advisory. */
  baseline: Baseline;
};

export type CloseAction = { type: "close"; id: string; fixed: string };

/** An open advisory's values moved again without restoring it: its record shows the new values. */
export type UpdateAction = { type: "update"; id: string; revision: string; changes: EstimateChange[] };

export type AdvisoryAction = OpenAction | CloseAction | UpdateAction;

type PlanInput = {
  /** The repo's open advisories, baselines read back from their stored records. */
  open: OpenAdvisory[];
  /** compareEstimates(parent, child).changes */
  changes: EstimateChange[];
  revision: string;
  parent: string | null;
  /**
   * estimateState(child estimate). Needed when an advisory covers several keys that come back in
   * different revisions; without it a key counts as restored only when this revision's change
   * brings it back.
   */
  state?: Record<string, StateValue>;
};

/**
 * Decides what a new revision does to the repo's advisories: close each open advisory whose
 * baseline is fully restored (a `fixed` event at this revision), and open one advisory for this
 * revision listing its advisory-worthy changes. Changes to keys an open advisory already covers raise
 * nothing new: while it stays open they update it (drift), and restoring all of them closes it.
 * An empty list means: update nothing.
 */
export function planAdvisory(input: PlanInput): { actions: AdvisoryAction[] } {
  const actions: AdvisoryAction[] = [];
  const covered = new Set<string>();
  for (const advisory of input.open) {
    for (const key of Object.keys(advisory.baseline)) covered.add(key);
    if (isRestored(advisory.baseline, input)) {
      actions.push({ type: "close", id: advisory.id, fixed: input.revision });
      continue;
    }
    const drift = input.changes.filter((c) => c.key in advisory.baseline);
    if (drift.length > 0)
      actions.push({ type: "update", id: advisory.id, revision: input.revision, changes: drift });
  }
  const fresh = input.changes.filter((c) => c.advisory && !covered.has(c.key));
  if (fresh.length > 0) {
    const baseline: Baseline = {};
    for (const c of fresh) baseline[c.key] = { kind: c.kind, value: c.before };
    actions.push({
      type: "open",
      introduced: input.revision,
      parent: input.parent,
      changes: fresh,
      baseline,
    });
  }
  return { actions };
}

function isRestored(baseline: Baseline, input: PlanInput): boolean {
  const entries = Object.entries(baseline);
  if (entries.length === 0) return false;
  const changed = new Map(input.changes.map((c) => [c.key, c.after]));
  return entries.every(([key, { value }]) => {
    if (input.state) return key in input.state && input.state[key] === value;
    return changed.has(key) && changed.get(key) === value;
  });
}

const SINCE = "; since then: ";

/**
 * An advisory's changes after drift: each drifted key keeps its `before` (the baseline) and takes the
 * new `after`; a behaviour change's sentence (which describes one step, not baseline to now) keeps the
 * introducing step and adds the latest one ("...; since then: ..."). Keys that did not move are kept.
 */
export function applyDrift(changes: EstimateChange[], drift: EstimateChange[]): EstimateChange[] {
  const moved = new Map(drift.map((c) => [c.key, c]));
  return changes.map((c) => {
    const d = moved.get(c.key);
    if (!d) return c;
    const first = c.summary?.split(SINCE)[0];
    const summary = d.summary && first ? `${first}${SINCE}${d.summary}` : (d.summary ?? c.summary);
    return { ...c, after: d.after, ...(summary ? { summary } : {}) };
  });
}
