import type { BehaviorDetail, BehaviorKind } from "../diff/behavior.ts";
import type { EstimateChange, StateValue } from "./types.ts";

/** The behaviour kinds that raise an advisory unless a deployment says otherwise. */
export const DEFAULT_BEHAVIOR_RULES: readonly BehaviorKind[] = ["prompt", "eos_token"];

/** A stored behaviour change, as the rules read it. */
type BehaviorChangeInput = { kind: BehaviorKind; summary: string; detail: BehaviorDetail };

/** "behavior:<kind>", the advisory key of a behaviour kind. */
export function behaviorKey(kind: BehaviorKind): string {
  return `behavior:${kind}`;
}

/**
 * Turns a revision's behaviour changes into advisory changes for planAdvisory, for the kinds whose
 * rule is on: before/after are the kind's whole state on each side, so a later revision that brings
 * the old state back closes the advisory. `state` is this revision's value of every changed kind
 * (merge it into estimateState's).
 */
export function behaviorAdvice(
  rows: BehaviorChangeInput[],
  enabled: readonly BehaviorKind[],
): { changes: EstimateChange[]; state: Record<string, StateValue> } {
  const changes: EstimateChange[] = [];
  const state: Record<string, StateValue> = {};
  for (const row of rows) {
    state[behaviorKey(row.kind)] = row.detail.after;
    if (!enabled.includes(row.kind)) continue;
    changes.push({
      kind: row.kind,
      key: behaviorKey(row.kind),
      before: row.detail.before,
      after: row.detail.after,
      advisory: true,
      summary: row.summary,
    });
  }
  return { changes, state };
}
