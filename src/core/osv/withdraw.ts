import { osvTimestamp } from "./id.ts";

/**
 * The record withdrawn at `at` (OSV `withdrawn`, RFC 3339 UTC with Z) with `modified` bumped and
 * `reason` kept as database_specific.withdrawn_reason; every other field unchanged. A record already
 * withdrawn comes back as it is, so withdrawing twice changes nothing.
 */
export function withdrawOsvRecord(
  record: Record<string, unknown>,
  at: Date,
  reason: string,
): Record<string, unknown> {
  if (typeof record.withdrawn === "string") return record;
  const ds = (record.database_specific ?? {}) as Record<string, unknown>;
  const stamp = osvTimestamp(at);
  return {
    ...record,
    modified: stamp,
    withdrawn: stamp,
    database_specific: { ...ds, withdrawn_reason: reason },
  };
}

/** Whether an OSV record carries `withdrawn`. */
export function isWithdrawn(record: Record<string, unknown>): boolean {
  return typeof record.withdrawn === "string";
}
