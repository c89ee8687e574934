export type { EstimatorDrift } from "./compare.ts";
export {
  compareEstimates,
  compareForDrift,
  estimateState,
  fitKey,
  PARAMS_KEY,
  TIED_KEY,
  verdictLabel,
} from "./compare.ts";
export type { AdvisoryAction, CloseAction, OpenAction, PlanInput } from "./plan.ts";
export { planAdvisory } from "./plan.ts";
export { describeChanges } from "./text.ts";
export type {
  Baseline,
  ChangeKind,
  Estimate,
  EstimateChange,
  FitCell,
  OpenAdvisory,
  StateValue,
} from "./types.ts";
export { CHANGE_KINDS } from "./types.ts";
