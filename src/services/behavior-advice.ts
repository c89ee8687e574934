import { behaviorAdvice } from "../core/advise/behavior-rules.ts";
import type { EstimateChange, StateValue } from "../core/advise/types.ts";
import type { BehaviorChange } from "../core/diff/behavior.ts";
import type { PipelineServices } from "./deps.ts";

/**
 * A revision's behaviour changes as advisory changes, for the kinds HUBWATCH_BEHAVIOR_ADVISORIES
 * turns on (prompt and EOS by default), plus their state for closing (core/advise/behavior-rules.ts).
 */
export function behaviorAdvisoryChanges(
  s: Pick<PipelineServices, "config">,
  rows: BehaviorChange[],
): { changes: EstimateChange[]; state: Record<string, StateValue> } {
  return behaviorAdvice(rows, s.config.HUBWATCH_BEHAVIOR_ADVISORIES);
}
