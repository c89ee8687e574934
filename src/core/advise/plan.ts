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

export type AdvisoryAction = OpenAction | CloseAction;

export type PlanInput = {
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
 * revision listing its advisory-worthy changes. Changes to keys an open advisory already covers
 * (including their restoration) raise nothing new. An empty list means: update nothing.
 */
export function planAdvisory(input: PlanInput): { actions: AdvisoryAction[] } {
  const actions: AdvisoryAction[] = [];
  const covered = new Set<string>();
  for (const advisory of input.open) {
    for (const key of Object.keys(advisory.baseline)) covered.add(key);
    if (isRestored(advisory.baseline, input)) {
      actions.push({ type: "close", id: advisory.id, fixed: input.revision });
    }
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
