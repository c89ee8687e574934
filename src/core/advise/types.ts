/** The estimator's output as stored per revision (only the fields advisories read are typed). */
export type Estimate = {
  estimator_version: string;
  /** How the structure was read (estimator 1.2.0 on): a "generic" reading alone does not raise advisories. */
  reader?: { confidence: string };
  params: { total: number; towers: unknown; tied_embedding: boolean };
  checkpoint?: { tied_embedding_stored_twice: boolean; extra_scalars: number; stored_total: number };
  fit: FitCell[];
};

export type FitCell = {
  card: string;
  mode: string;
  verdict: string;
  batch: number;
  split: number[] | null;
  text: string;
};

import { BEHAVIOR_KINDS } from "../diff/behavior.ts";

/** What an estimate comparison finds, then the behaviour kinds (rendered prompt, EOS, ...). */
const CHANGE_KINDS = [
  "params_total",
  "tied_embedding_storage",
  "fit_verdict",
  "fit_batch",
  ...BEHAVIOR_KINDS,
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** A compared value: a count, a flag, a verdict label ("fits", "2 cards", ...); null when absent. */
export type StateValue = number | boolean | string | null;

/**
 * One difference between two estimates, or a behaviour change. Keys: "params:total",
 * "checkpoint:tied_embedding_stored_twice", "fit:<card>:<mode>" (verdict),
 * "fit:<card>:<mode>:batch", "behavior:<kind>".
 */
export type EstimateChange = {
  kind: ChangeKind;
  key: string;
  before: StateValue;
  after: StateValue;
  /** Worth an advisory (a verdict, params or tied-storage change); batch-only changes are not. */
  advisory: boolean;
  /** A behaviour change's own sentence (its before/after are whole states, not for reading). */
  summary?: string;
};

/** Per key, the value before an advisory's introducing revision: restoring all of them fixes it. */
export type Baseline = Record<string, { kind: ChangeKind; value: StateValue }>;

/** An open advisory as stored (baseline read back from its `database_specific`). */
export type OpenAdvisory = { id: string; introduced: string; baseline: Baseline };
