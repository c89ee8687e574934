import type { Estimate, EstimateChange, FitCell, StateValue } from "./types.ts";

/**
 * Differences between the parent's and the child's estimates, in a stable order: params, tied
 * storage, then fit cells in the child's order. Verdicts compare as labels ("fits",
 * "borderline", "2 cards", "does_not_fit"); a cell present on one side only is recorded with
 * null on the other, not as an advisory (the card list changed, not the model). Changes between
 * estimates either of which rests on a generic reading alone are recorded, not raised.
 */
export function compareEstimates(prev: Estimate, next: Estimate): { changes: EstimateChange[] } {
  const changes: EstimateChange[] = [];
  if (prev.params.total !== next.params.total) {
    changes.push(change("params_total", "params:total", prev.params.total, next.params.total, true));
  }
  const tiedBefore = prev.checkpoint?.tied_embedding_stored_twice;
  const tiedAfter = next.checkpoint?.tied_embedding_stored_twice;
  // Without checkpoint headers on both sides the storage is unknown, not changed.
  if (tiedBefore !== undefined && tiedAfter !== undefined && tiedBefore !== tiedAfter) {
    changes.push(change("tied_embedding_storage", TIED_KEY, tiedBefore, tiedAfter, true));
  }
  changes.push(...compareFit(prev.fit, next.fit));
  // An advisory never rests on a generic reading alone: it waits for a known reader or a stored total.
  if (!grounded(prev) || !grounded(next)) for (const c of changes) c.advisory = false;
  return { changes };
}

/**
 * Whether an estimate's figures rest on more than the generic reading's guesses: a known family reader, or
 * the checkpoint's headers (stored totals and weight bytes). Estimates stored before readers were rated
 * count as grounded, as they always did.
 */
function grounded(e: Estimate): boolean {
  return e.reader === undefined || e.reader.confidence === "known" || e.checkpoint !== undefined;
}

const PARAMS_KEY = "params:total";
const TIED_KEY = "checkpoint:tied_embedding_stored_twice";

/** "fit:<card>:<mode>", the key of a fit cell's verdict. */
function fitKey(cell: Pick<FitCell, "card" | "mode">): string {
  return `fit:${cell.card}:${cell.mode}`;
}

/** The verdict as compared: "cards" carries its card count, since 2 and 3 cards differ. */
function verdictLabel(cell: FitCell): string {
  return cell.verdict === "cards" ? `${cell.split?.length ?? 2} cards` : cell.verdict;
}

function compareFit(prev: FitCell[], next: FitCell[]): EstimateChange[] {
  const old = new Map(prev.map((c) => [fitKey(c), c]));
  const seen = new Set<string>();
  const out: EstimateChange[] = [];
  for (const cell of next) {
    const key = fitKey(cell);
    seen.add(key);
    const before = old.get(key);
    if (!before) {
      out.push(change("fit_verdict", key, null, verdictLabel(cell), false));
      continue;
    }
    if (verdictLabel(before) !== verdictLabel(cell)) {
      out.push(change("fit_verdict", key, verdictLabel(before), verdictLabel(cell), true));
    }
    if (before.batch !== cell.batch) {
      out.push(change("fit_batch", `${key}:batch`, before.batch, cell.batch, false));
    }
  }
  for (const cell of prev) {
    if (!seen.has(fitKey(cell)))
      out.push(change("fit_verdict", fitKey(cell), verdictLabel(cell), null, false));
  }
  return out;
}

function change(
  kind: EstimateChange["kind"],
  key: string,
  before: StateValue,
  after: StateValue,
  advisory: boolean,
): EstimateChange {
  return { kind, key, before, after, advisory };
}

/**
 * The advisory-relevant values of one estimate by key (params total, tied storage when known,
 * each cell's verdict label): what a baseline is compared against to decide a fix.
 */
export function estimateState(estimate: Estimate): Record<string, StateValue> {
  const state: Record<string, StateValue> = { [PARAMS_KEY]: estimate.params.total };
  if (estimate.checkpoint) state[TIED_KEY] = estimate.checkpoint.tied_embedding_stored_twice;
  for (const cell of estimate.fit) state[fitKey(cell)] = verdictLabel(cell);
  return state;
}

type EstimatorDrift = {
  kind: "estimator_drift";
  from_version: string;
  to_version: string;
  /** The same comparison as between revisions; never advisories (the model did not change). */
  changes: EstimateChange[];
};

/** Compares one revision's estimates from two estimator versions (after an estimator upgrade). */
export function compareForDrift(oldVersionEstimate: Estimate, newVersionEstimate: Estimate): EstimatorDrift {
  const { changes } = compareEstimates(oldVersionEstimate, newVersionEstimate);
  return {
    kind: "estimator_drift",
    from_version: oldVersionEstimate.estimator_version,
    to_version: newVersionEstimate.estimator_version,
    changes: changes.map((c) => ({ ...c, advisory: false })),
  };
}
