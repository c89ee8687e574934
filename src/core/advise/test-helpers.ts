import type { Estimate, FitCell } from "./types.ts";

/** A small estimate for tests; override parts per revision. */
export function makeEstimate(over: {
  total?: number;
  twice?: boolean | null;
  fit?: Partial<FitCell>[];
  version?: string;
}): Estimate {
  const fit = (over.fit ?? [{}]).map((f) => ({
    card: "A100 80 GB",
    mode: "lora",
    verdict: "fits",
    batch: 5,
    split: null,
    text: "batch 5",
    ...f,
  }));
  const twice = over.twice === undefined ? false : over.twice;
  return {
    estimator_version: over.version ?? "1.0.0",
    params: { total: over.total ?? 4022468096, towers: [], tied_embedding: true },
    ...(twice === null
      ? {}
      : {
          checkpoint: {
            tied_embedding_stored_twice: twice,
            extra_scalars: twice ? 388956160 : 0,
            stored_total: (over.total ?? 4022468096) + (twice ? 388956160 : 0),
          },
        }),
    fit,
  };
}
