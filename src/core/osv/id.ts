/** Our OSV database prefix; `x_` marks a local database that OSV.dev does not aggregate. */
const ADVISORY_PREFIX = "x_HUBWATCH";

const ID_PATTERN = /^x_HUBWATCH-(\d{4})-(\d{4,})$/;

/** `x_HUBWATCH-YYYY-NNNN` (NNNN zero-padded to at least 4 digits; n counts per year from 1). */
export function formatAdvisoryId(year: number, n: number): string {
  if (!Number.isInteger(year) || year < 1000 || year > 9999) throw new RangeError(`bad year ${year}`);
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`bad advisory number ${n}`);
  return `${ADVISORY_PREFIX}-${year}-${String(n).padStart(4, "0")}`;
}

/** The year and number of one of our ids; null for anything else. */
export function parseAdvisoryId(id: string): { year: number; n: number } | null {
  const m = ID_PATTERN.exec(id);
  if (!m) return null;
  return { year: Number(m[1]), n: Number(m[2]) };
}

/** RFC 3339 UTC with "Z" and whole seconds, as OSV timestamps are written. */
export function osvTimestamp(date: Date): string {
  return date.toISOString().replace(/\.\d+Z$/, "Z");
}
