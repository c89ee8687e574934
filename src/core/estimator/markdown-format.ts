/** Number formats of the Markdown page, as on the seed pages. */

/**
 * GB with the seeds' precision: two decimals below 10 GB, one from 10 GB; rounded half-up from the
 * two-decimal figure, as the seed pages do (17.447 GB -> 17.45 -> 17.5). Integer arithmetic: no float ties.
 */
export function formatGb(bytes: number): string {
  const hundredths = Math.round(bytes / 1e7);
  if (hundredths >= 1000) {
    const tenths = Math.round(hundredths / 10);
    return `${Math.floor(tenths / 10).toLocaleString("en-US")}.${tenths % 10} GB`;
  }
  return `${(hundredths / 100).toFixed(2)} GB`;
}

/** Parameter counts as 4.02B / 152M / 22.7M / 4.39K. */
export function formatParams(n: number): string {
  const units: [number, string][] = [
    [1e12, "T"],
    [1e9, "B"],
    [1e6, "M"],
    [1e3, "K"],
  ];
  for (const [size, suffix] of units) {
    if (n >= size) return `${Number((n / size).toPrecision(3))}${suffix}`;
  }
  return String(n);
}

/** Signed percentage: two decimals below 10%, one above (seed style). */
export function formatDelta(delta: number): string {
  const pct = delta * 100;
  const s = Math.abs(pct) < 10 ? pct.toFixed(2) : pct.toFixed(1);
  return `${pct >= 0 && !s.startsWith("-") ? "+" : ""}${s}%`;
}

export const int = (n: number) => n.toLocaleString("en-US");
