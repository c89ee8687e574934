const UNITS = [
  { div: 1e12, suffix: "T" },
  { div: 1e9, suffix: "B" },
  { div: 1e6, suffix: "M" },
  { div: 1e3, suffix: "K" },
] as const;

/**
 * A parameter count with three significant digits and a decimal suffix:
 * 4022468096 -> "4.02B", 124697947 -> "125M", 950 -> "950".
 */
export function formatParams(count: number): string {
  if (!Number.isFinite(count)) return "unknown";
  const abs = Math.abs(count);
  for (let i = 0; i < UNITS.length; i++) {
    const unit = UNITS[i];
    if (!unit || abs < unit.div) continue;
    const text = (count / unit.div).toPrecision(3);
    // 999.6M rounds to "1.00e+3"; move up a unit instead.
    const bigger = UNITS[i - 1];
    if (Math.abs(Number(text)) >= 1000 && bigger)
      return `${(count / bigger.div).toPrecision(3)}${bigger.suffix}`;
    return `${Number(text) >= 1000 ? Math.round(count / unit.div) : text}${unit.suffix}`;
  }
  return String(Math.round(count));
}
