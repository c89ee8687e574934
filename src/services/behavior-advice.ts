import { behaviorAdvice } from "../core/advise/behavior-rules.ts";
import type { EstimateChange, StateValue } from "../core/advise/types.ts";
import { listBehaviorChangesByRevision } from "../repositories/behavior-changes.repository.ts";
import type { Revision } from "../repositories/revisions.repository.ts";
import type { PipelineServices } from "./deps.ts";

/**
 * The revision's behaviour changes as advisory changes, for the kinds HUBWATCH_BEHAVIOR_ADVISORIES
 * turns on (prompt and EOS by default), plus their state for closing (core/advise/behavior-rules.ts).
 */
export async function behaviorAdvisoryChanges(
  s: PipelineServices,
  revision: Revision,
): Promise<{ changes: EstimateChange[]; state: Record<string, StateValue> }> {
  const rows = await listBehaviorChangesByRevision(s.db, revision.id);
  return behaviorAdvice(rows, s.config.HUBWATCH_BEHAVIOR_ADVISORIES);
}
