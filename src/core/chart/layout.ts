import type { Marker, Series } from "./history.ts";

// Geometry of a line chart in SVG user units: scales, step paths, ticks and marker positions.
// The view only turns these numbers into elements.

export type Box = { width: number; height: number; left: number; right: number; top: number; bottom: number };
type LaidPoint = { x: number; y: number; sha: string; value: number };
export type LaidSeries = { key: string; label: string; points: LaidPoint[]; path: string };
export type LineLayout = {
  box: Box;
  series: LaidSeries[];
  yTicks: { y: number; value: number }[];
  xTicks: { x: number; at: number }[];
  markers: (Marker & { x: number })[];
};

export const DEFAULT_BOX: Box = { width: 400, height: 210, left: 58, right: 12, top: 12, bottom: 40 };

/** Round tick values covering [0, max]: 1, 2 or 5 times a power of ten, about `count` of them. */
export function niceTicks(max: number, count = 4): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].find((m) => m * pow >= raw) ?? 10) * pow;
  const ticks: number[] = [];
  for (let v = 0; v < max + step / 2 && ticks.length <= count + 2; v += step) ticks.push(v);
  if ((ticks.at(-1) ?? 0) < max) ticks.push(ticks.length * step);
  return ticks;
}

const round = (n: number) => Math.round(n * 10) / 10;

/**
 * The points worth a marker when a series is long: the first, the last, and each whose value differs
 * from the one before (the step line still draws every value). Short series keep every point.
 */
export function markedPoints<T extends { value: number }>(points: T[], max = 120): T[] {
  if (points.length <= max) return points;
  return points.filter((p, i) => i === 0 || i === points.length - 1 || p.value !== points[i - 1]?.value);
}

/** Lays out `series` (all sharing one y scale from 0) and `markers` on a common x axis. */
export function layoutLineChart(series: Series[], markers: Marker[], box: Box = DEFAULT_BOX): LineLayout {
  const xs = [...series.flatMap((s) => s.points.map((p) => p.at)), ...markers.map((m) => m.at)];
  let x0 = Math.min(...xs);
  let x1 = Math.max(...xs);
  if (!Number.isFinite(x0)) [x0, x1] = [0, 1];
  if (x0 === x1) [x0, x1] = [x0 - 1, x1 + 1];
  const yTickValues = niceTicks(Math.max(0, ...series.flatMap((s) => s.points.map((p) => p.value))));
  const y1 = yTickValues.at(-1) ?? 1;
  const plotW = box.width - box.left - box.right;
  const plotH = box.height - box.top - box.bottom;
  const sx = (v: number) => round(box.left + ((v - x0) / (x1 - x0)) * plotW);
  const sy = (v: number) => round(box.top + plotH - (v / y1) * plotH);
  const laid = series.map((s) => {
    const points = s.points.map((p) => ({ x: sx(p.at), y: sy(p.value), sha: p.sha, value: p.value }));
    return { key: s.key, label: s.label, points, path: stepPath(points, sx(x1)) };
  });
  // Three labels (start, middle, end) stay apart even at a phone's width.
  const xTicks = [0, 1, 2].map((i) => {
    const at = x0 + ((x1 - x0) * i) / 2;
    return { x: sx(at), at };
  });
  return {
    box,
    series: laid,
    yTicks: yTickValues.map((value) => ({ y: sy(value), value })),
    xTicks,
    markers: markers.map((m) => ({ ...m, x: sx(m.at) })),
  };
}

/** A value holds until the next revision: horizontal then vertical steps, carried to the right edge. */
function stepPath(points: { x: number; y: number }[], right: number): string {
  if (points.length === 0) return "";
  const [first, ...rest] = points as [{ x: number; y: number }, ...{ x: number; y: number }[]];
  let d = `M${first.x} ${first.y}`;
  for (const p of rest) d += `H${p.x}V${p.y}`;
  return `${d}H${right}`;
}
