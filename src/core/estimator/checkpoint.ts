/**
 * The derived count against the published weights. From safetensors headers: every tensor sorted into
 * buffers (set aside by name: attention masks, position ids, rotary caches, what the reader declares),
 * quantization scales / zero points / indices, and weights (packed ones unpacked to their logical count);
 * a tied embedding stored twice; scalars and bytes per dtype. From the index alone: total_size in bytes.
 */
import { EstimatorInputError } from "./config-view.ts";
import { type HeaderTally, quantMethod, tallyHeaders, tiedCopy } from "./header-tally.ts";
import type { QuantSpec } from "./quantization.ts";
import type { CheckpointInput, ModelReading, TensorHeader } from "./types.ts";

export type CheckpointReport = {
  /** Every scalar in the files (the Hub's safetensors.total counts them so, less scales); packed elements as stored. */
  stored_total: number;
  /** Logical parameters: buffers and quantization scales left out, packed weights unpacked. */
  compared_total: number;
  /** The derived count plus the computed extras the files hold (a tied embedding's second copy). */
  expected_total: number;
  /** (expected_total - compared_total) / compared_total; on "bytes" basis, over stored bytes. */
  delta: number;
  delta_basis: "scalars" | "bytes";
  source: "headers" | "index_total_size";
  tied_embedding_stored_twice: boolean;
  /** Scalars the second copy of a tied embedding adds (0 when not stored twice). */
  extra_scalars: number;
  tied_tensors?: string[];
  /** Shape of the second copy (e.g. [151936, 2048]). */
  tied_shape?: number[];
  dtypes: Record<string, number>;
  buffers: { name: string; scalars: number }[];
  /** Bytes of every tensor in the files (headers), or the index's total_size. */
  stored_bytes: number;
  /** Index only: the bytes the structure and quantization_config predict for the files. */
  expected_bytes?: number;
  quantization?: { method: string; logical_params: number; bytes_per_weight: number; scale_scalars: number };
};

/** Compares a derived count (null when no structure was read) with the tensors' logical total. */
export function fromHeaders(
  r: ModelReading | null,
  tied: boolean,
  derived: number | null,
  ts: TensorHeader[],
  q: QuantSpec | null,
): { report: CheckpointReport; tally: HeaderTally } {
  const tie = tiedCopy(tied, ts);
  const t = tallyHeaders(ts, r?.storedBuffers ?? [], q, tie?.head ?? null);
  const extra = tie?.extra ?? 0;
  const expected = (derived ?? t.logical - extra) + extra;
  const report: CheckpointReport = {
    stored_total: t.stored,
    compared_total: t.logical,
    expected_total: expected,
    delta: t.logical > 0 ? (expected - t.logical) / t.logical : 0,
    delta_basis: "scalars",
    source: "headers",
    tied_embedding_stored_twice: tie !== null,
    extra_scalars: extra,
    dtypes: t.dtypes,
    buffers: t.buffers,
    stored_bytes: t.storedBytes,
  };
  if (tie) {
    report.tied_tensors = tie.names;
    report.tied_shape = tie.shape;
  }
  const method = quantMethod(ts, q);
  if (method && t.quantLogical > 0) {
    report.quantization = {
      method,
      logical_params: t.logical,
      bytes_per_weight: t.quantBytes / t.quantLogical,
      scale_scalars: t.auxScalars,
    };
  }
  return { report, tally: t };
}

/**
 * The index's total_size against the derived count. Unquantized: scalars = bytes / the dtype's size.
 * Quantized: the files mix dtypes, so bytes are compared with the bytes the structure predicts.
 */
export function fromIndex(
  derived: number,
  input: CheckpointInput,
  dtypeBytes: number,
  expectedBytes: number | null,
): CheckpointReport {
  const size = input.indexTotalSizeBytes;
  if (size === undefined || !Number.isFinite(size) || size <= 0) {
    throw new EstimatorInputError("checkpoint", "neither tensor headers nor a positive index total_size");
  }
  const base = {
    source: "index_total_size" as const,
    tied_embedding_stored_twice: false,
    extra_scalars: 0,
    buffers: [],
    stored_bytes: size,
  };
  if (expectedBytes !== null) {
    return {
      ...base,
      stored_total: derived,
      compared_total: derived,
      expected_total: derived,
      delta: (expectedBytes - size) / size,
      delta_basis: "bytes",
      dtypes: {},
      expected_bytes: expectedBytes,
    };
  }
  const stored = Math.round(size / dtypeBytes);
  return {
    ...base,
    stored_total: stored,
    compared_total: stored,
    expected_total: derived,
    delta: (derived - stored) / stored,
    delta_basis: "scalars",
    dtypes: { [dtypeBytes === 4 ? "F32" : "BF16/F16"]: stored },
  };
}
