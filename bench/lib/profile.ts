/**
 * Summaries for "where the time goes": self time of a V8 .cpuprofile grouped by module and by pipeline
 * area, and the per-step wall-clock timings the worker logs at debug level ("revision done").
 */
import { readFileSync } from "node:fs";
import { round } from "./harness.ts";

type ProfileNode = { id: number; callFrame: { functionName: string; url: string }; children?: number[] };
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

/** The module a frame belongs to: an npm package, a folder of ours, a node: module, or a V8 pseudo-frame. */
export function moduleOf(url: string, fn: string): string {
  if (!url) return fn.startsWith("(") ? fn : "(native)";
  const nm = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (nm) return nm[1]!;
  if (url.includes("internal/deps/undici")) return "undici";
  const ours = /\/(src\/core\/[^/]+|src\/[^/]+|jobs|bin)\//.exec(url);
  if (ours) return ours[1]!;
  if (url.startsWith("node:"))
    return url
      .replace(/^node:(internal\/)?/, "node:")
      .split("/")
      .slice(0, 2)
      .join("/");
  return "(other)";
}

const AREAS: [string, RegExp][] = [
  [
    "hub client (src/hub, @huggingface/hub, fetch/undici)",
    /^(src\/hub|@huggingface\/hub|undici|node:(webstreams|fetch|url|abort_controller|event_target))/,
  ],
  // Socket reads/writes are shared by the Hub's HTTP, PostgreSQL and Redis connections: one bucket.
  [
    "socket I/O (Hub HTTP + PostgreSQL + Redis)",
    /^node:(stream_base_commons|net|stream|streams|buffer|dns|tls|http|events)/,
  ],
  ["hashing", /^node:crypto/],
  ["diff (core/diff, json-diff-ts, jinja)", /^(src\/core\/diff|json-diff-ts|diff|@huggingface\/jinja)$/],
  ["estimate (core/estimator)", /^src\/core\/estimator$/],
  ["advise/badge/osv (core)", /^(src\/core\/(advise|badge|osv)|badge-maker|ajv|ajv-formats)$/],
  [
    "database (pg, drizzle, repositories)",
    /^(pg|pg-protocol|pg-pool|pg-types|postgres-[a-z]+|drizzle-orm|src\/repositories|src\/db)$/,
  ],
  ["queue (bullmq, ioredis)", /^(bullmq|ioredis|src\/queue|jobs|msgpackr|cron-parser)$/],
  ["services (pipeline glue)", /^src\/services$/],
  ["validation (zod)", /^zod$/],
  ["logging (pino)", /^(pino|pino-std-serializers|sonic-boom|thread-stream)$/],
  [
    "startup (module loading, tsx)",
    /^(tsx|esbuild|get-tsconfig|node:modules|node:deps\/cjs-module-lexer|node:fs|node:vm)/,
  ],
  ["garbage collector", /^\(garbage collector\)$/],
  ["idle", /^\(idle\)$/],
];

function areaOf(mod: string): string {
  return AREAS.find(([, re]) => re.test(mod))?.[0] ?? "other (node internals, V8)";
}

/** Self time (ms) by area and the top modules, from a .cpuprofile file. */
export function profileByModule(file: string) {
  const prof = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // A native frame (JSON.parse, RegExp, Buffer ops: no url) is charged to the nearest caller with one.
  const owner = (n: ProfileNode): ProfileNode => {
    let cur: ProfileNode | undefined = n;
    while (cur && !cur.callFrame.url && !cur.callFrame.functionName.startsWith("(")) {
      const up = parent.get(cur.id);
      cur = up === undefined ? undefined : byId.get(up);
    }
    return cur ?? n;
  };
  const selfUs = new Map<string, number>();
  prof.samples.forEach((id, i) => {
    const sampled = byId.get(id);
    if (!sampled) return;
    const n = owner(sampled);
    const mod = moduleOf(n.callFrame.url, n.callFrame.functionName);
    selfUs.set(mod, (selfUs.get(mod) ?? 0) + (prof.timeDeltas[i] ?? 0));
  });
  const areas = new Map<string, number>();
  for (const [mod, us] of selfUs) areas.set(areaOf(mod), (areas.get(areaOf(mod)) ?? 0) + us);
  const busy = [...areas].filter(([a]) => a !== "idle").reduce((s, [, us]) => s + us, 0);
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return {
    busyMs: Math.round(busy / 1000),
    idleMs: Math.round((areas.get("idle") ?? 0) / 1000),
    areas: sorted(areas)
      .filter(([a]) => a !== "idle")
      .map(([area, us]) => ({ area, ms: Math.round(us / 1000), pctOfBusy: round((100 * us) / busy, 1) })),
    topModules: sorted(selfUs)
      .filter(([m]) => m !== "(idle)")
      .slice(0, 15)
      .map(([module, us]) => ({ module, ms: Math.round(us / 1000), pctOfBusy: round((100 * us) / busy, 1) })),
  };
}

/** Sums of the per-step milliseconds in the worker's "revision done" debug lines (pino JSON). */
export function stepTimings(log: string) {
  const sums: Record<string, number> = {};
  let n = 0;
  let total = 0;
  for (const line of log.split("\n")) {
    if (!line.includes('"revision processed"')) continue;
    try {
      const e = JSON.parse(line) as { ms?: Record<string, number>; total?: number; outcome?: string };
      if (e.outcome !== "done") continue;
      for (const [k, v] of Object.entries(e.ms ?? {})) sums[k] = (sums[k] ?? 0) + v;
      total += e.total ?? 0;
      n += 1;
    } catch {}
  }
  if (n === 0) return null;
  const steps = Object.fromEntries(
    Object.entries(sums).map(([k, v]) => [
      k,
      { totalMs: v, meanMs: round(v / n, 1), pct: round((100 * v) / total, 1) },
    ]),
  );
  return { revisions: n, meanMsPerRevision: round(total / n, 1), steps };
}
