// Series of a repo's history as charts plot them: one point per revision with an estimate, oldest
// first, read straight from the stored estimate (no recomputation), plus the events to mark on the
// time axis. Pure: the HTTP view lays these out and draws them.

/** The parts of a stored estimate the charts read (older estimates may lack `weights`). */
export type ChartEstimate = {
  params: { total: number };
  weights?: { bytes: number } | null;
  memory: {
    full_finetune: { bytes: number };
    lora: { bytes: number };
    serve: { bytes: number };
    kv_cache: { bytes: number };
  };
  fit: { card: string; mode: string; verdict: string; text: string }[];
};

/** One revision, oldest first; `at` is its commit time in ms (null when unknown). */
export type ChartRevision = {
  sha: string;
  at: number | null;
  forcePushedAway: boolean;
  estimate: ChartEstimate | null;
};

export type SeriesPoint = { sha: string; at: number; value: number };
export type Series = { key: string; label: string; points: SeriesPoint[] };
export type Marker = {
  at: number;
  kind: "advisory_opened" | "advisory_closed" | "force_push";
  label: string;
};

type Pick = [key: string, label: string, value: (e: ChartEstimate) => number | null];

const SIZE: Pick[] = [
  ["params", "parameters", (e) => e.params.total],
  ["weights", "weight bytes", (e) => e.weights?.bytes ?? null],
];
const MEMORY: Pick[] = [
  ["full_finetune", "full fine-tune", (e) => e.memory.full_finetune.bytes],
  ["lora", "LoRA", (e) => e.memory.lora.bytes],
  ["serve_kv", "serve + KV", (e) => e.memory.serve.bytes + e.memory.kv_cache.bytes],
];

/**
 * The x of each revision: its commit time, or (when some revision has none) its position, so the
 * axis is either time throughout or order throughout.
 */
export function revisionTimes(revs: ChartRevision[]): { times: number[]; isTime: boolean } {
  const isTime = revs.every((r) => r.at !== null);
  return { times: revs.map((r, i) => (isTime ? (r.at as number) : i)), isTime };
}

function seriesOf(revs: ChartRevision[], picks: Pick[]): Series[] {
  const { times } = revisionTimes(revs);
  return picks.map(([key, label, value]) => ({
    key,
    label,
    points: revs.flatMap((r, i) => {
      const v = r.estimate ? value(r.estimate) : null;
      return v === null || !Number.isFinite(v) ? [] : [{ sha: r.sha, at: times[i] as number, value: v }];
    }),
  }));
}

/** Parameter count and weight bytes per estimated revision (separate scales: two series). */
export function sizeSeries(revs: ChartRevision[]): Series[] {
  return seriesOf(revs, SIZE);
}

/** Memory per mode per estimated revision: full fine-tune, LoRA, serving with one sequence's KV cache. */
export function memorySeries(revs: ChartRevision[]): Series[] {
  return seriesOf(revs, MEMORY);
}

/** An advisory as far as the time axis cares: the shas that opened and closed it. */
export type ChartAdvisory = { id: string; introducedSha: string | null; fixedSha: string | null };

/** Advisories opened and closed, and force-pushed-away revisions, at their revisions' x. */
export function historyMarkers(revs: ChartRevision[], advisories: ChartAdvisory[]): Marker[] {
  const { times } = revisionTimes(revs);
  const at = new Map(revs.map((r, i) => [r.sha, times[i] as number]));
  const out: Marker[] = [];
  for (const a of advisories) {
    const opened = a.introducedSha ? at.get(a.introducedSha) : undefined;
    if (opened !== undefined) out.push({ at: opened, kind: "advisory_opened", label: `${a.id} opened` });
    const closed = a.fixedSha ? at.get(a.fixedSha) : undefined;
    if (closed !== undefined) out.push({ at: closed, kind: "advisory_closed", label: `${a.id} closed` });
  }
  revs.forEach((r, i) => {
    if (r.forcePushedAway)
      out.push({
        at: times[i] as number,
        kind: "force_push",
        label: `${r.sha.slice(0, 12)} force-pushed away`,
      });
  });
  return out.sort((a, b) => a.at - b.at);
}
