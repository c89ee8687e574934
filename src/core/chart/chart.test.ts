import { describe, expect, it } from "vitest";
import { fitMap } from "./fit-map.ts";
import {
  type ChartEstimate,
  type ChartRevision,
  historyMarkers,
  memorySeries,
  sizeSeries,
} from "./history.ts";
import { DEFAULT_BOX, layoutLineChart, markedPoints, niceTicks } from "./layout.ts";

const est = (params: number, fitText: string, verdict = "fits"): ChartEstimate => ({
  params: { total: params },
  weights: { bytes: params * 2 },
  memory: {
    full_finetune: { bytes: params * 19.2 },
    lora: { bytes: params * 2.5 },
    serve: { bytes: params * 2 },
    kv_cache: { bytes: 1e8 },
  },
  fit: [
    { card: "T4 16 GB", mode: "serve", verdict, text: fitText },
    { card: "A100 80 GB", mode: "serve", verdict: "fits", text: "batch 40" },
  ],
});
const day = 86_400_000;
const revs: ChartRevision[] = [
  { sha: "a".repeat(40), at: 0, forcePushedAway: false, estimate: null },
  { sha: "b".repeat(40), at: day, forcePushedAway: false, estimate: est(1e9, "batch 4") },
  { sha: "c".repeat(40), at: 2 * day, forcePushedAway: true, estimate: est(2e9, "batch 1", "borderline") },
  { sha: "d".repeat(40), at: 3 * day, forcePushedAway: false, estimate: est(2e9, "batch 1", "borderline") },
];

describe("history series", () => {
  it("has one point per estimated revision, with the stored values", () => {
    const [params, weights] = sizeSeries(revs);
    expect(params?.points.map((p) => [p.sha[0], p.at, p.value])).toEqual([
      ["b", day, 1e9],
      ["c", 2 * day, 2e9],
      ["d", 3 * day, 2e9],
    ]);
    expect(weights?.points.map((p) => p.value)).toEqual([2e9, 4e9, 4e9]);
    const serve = memorySeries(revs).find((s) => s.key === "serve_kv");
    expect(serve?.points[0]?.value).toBe(2e9 + 1e8);
  });
  it("falls back to revision order when a commit time is unknown", () => {
    const series = sizeSeries([{ ...revs[1]!, at: null }, revs[2]!]);
    expect(series[0]?.points.map((p) => p.at)).toEqual([0, 1]);
  });
  it("marks advisories opened and closed and force-pushes at their revisions", () => {
    const markers = historyMarkers(revs, [
      { id: "HW-1", introducedSha: "b".repeat(40), fixedSha: "d".repeat(40) },
    ]);
    expect(markers.map((m) => [m.kind, m.at])).toEqual([
      ["advisory_opened", day],
      ["force_push", 2 * day],
      ["advisory_closed", 3 * day],
    ]);
  });
});

describe("fit map", () => {
  it("gives the head's cells and the revision where each last changed", () => {
    const map = fitMap(revs);
    expect(map?.head).toBe("d".repeat(40));
    expect(map?.cards).toEqual(["T4 16 GB", "A100 80 GB"]);
    expect(map?.cells.get("T4 16 GB\nserve")).toEqual({
      verdict: "borderline",
      text: "batch 1",
      since: "c".repeat(40),
    });
    expect(map?.cells.get("A100 80 GB\nserve")?.since).toBe("b".repeat(40));
    expect(fitMap([revs[0]!])).toBeNull();
  });
});

describe("line chart layout", () => {
  it("picks round ticks from zero", () => {
    expect(niceTicks(3.9e9)).toEqual([0, 1e9, 2e9, 3e9, 4e9]);
    expect(niceTicks(4.2e9)).toEqual([0, 2e9, 4e9, 6e9]);
    expect(niceTicks(0)).toEqual([0, 1]);
  });
  it("places points inside the plot, higher values higher, as a step path", () => {
    const l = layoutLineChart(sizeSeries(revs).slice(0, 1), historyMarkers(revs, []));
    const pts = l.series[0]?.points ?? [];
    expect(pts.map((p) => p.x)).toEqual([...pts.map((p) => p.x)].sort((a, b) => a - b));
    expect(pts[0]!.x).toBe(DEFAULT_BOX.left);
    expect(pts[2]!.x).toBe(DEFAULT_BOX.width - DEFAULT_BOX.right);
    expect(pts[1]!.y).toBeLessThan(pts[0]!.y);
    expect(l.series[0]?.path).toMatch(/^M58 \d+(\.\d)?H/);
    expect(l.markers[0]?.x).toBeCloseTo((DEFAULT_BOX.left + DEFAULT_BOX.width - DEFAULT_BOX.right) / 2, 0);
    const bottom = DEFAULT_BOX.height - DEFAULT_BOX.bottom;
    expect(l.yTicks[0]).toEqual({ y: bottom, value: 0 });
  });
  it("keeps a marker only where a long series changes", () => {
    const pts = Array.from({ length: 200 }, (_, i) => ({ value: i < 100 ? 1 : 2, i }));
    expect(markedPoints(pts).map((p) => p.i)).toEqual([0, 100, 199]);
    expect(markedPoints(pts.slice(0, 50))).toHaveLength(50);
  });
  it("handles a single point", () => {
    const l = layoutLineChart([{ key: "p", label: "p", points: [{ sha: "x", at: 5, value: 3 }] }], []);
    expect(Number.isFinite(l.series[0]?.points[0]?.x)).toBe(true);
  });
});
