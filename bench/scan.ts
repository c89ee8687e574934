/**
 * `npm run bench:scan [-- PATH...]`: how fast `hubwatch scan` walks and reads a codebase (walk,
 * .gitignore, read, parse, find; no store or API). Default PATH: a synthetic tree of BENCH_SCAN_COPIES
 * (default 200) copies of test/fixtures/scan/tree in a temp folder; pass a checkout of a real codebase
 * (e.g. diffusers) to measure that. Runs the whole scan BENCH_ITERATIONS times (default 5) after one
 * warm-up, then times the finders alone per file kind on the texts already read. Wall and CPU time are
 * both reported (the second is what holds on a shared machine). Prints one JSON line last.
 */
import { cp, mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { FileKind } from "../src/core/scan/file-kind.ts";
import { findReferences } from "../src/core/scan/find-references.ts";
import { scanTree } from "../src/services/scan/scan-tree.ts";
import { emptyStats, walkFiles } from "../src/services/scan/walk.ts";
import { machine, round, summarize } from "./lib/harness.ts";

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 5);
const COPIES = Number(process.env.BENCH_SCAN_COPIES ?? 200);

async function syntheticTree(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "hubwatch-bench-scan-"));
  const fixture = new URL("../test/fixtures/scan/tree/", import.meta.url);
  for (let i = 0; i < COPIES; i++) await cp(fixture, join(root, `copy-${i}`), { recursive: true });
  return root;
}

/** Parse time per file kind, on texts already in memory (one pass, after the timed scans). */
async function perKind(paths: string[]) {
  const stats = emptyStats();
  const byKind = new Map<FileKind, { files: number; bytes: number; ms: number; refs: number }>();
  for await (const f of walkFiles(paths, stats)) {
    const t = performance.now();
    const refs = findReferences(f.path, f.text, f.kind).length;
    const row = byKind.get(f.kind) ?? { files: 0, bytes: 0, ms: 0, refs: 0 };
    row.files += 1;
    row.bytes += f.text.length;
    row.ms += performance.now() - t;
    row.refs += refs;
    byKind.set(f.kind, row);
  }
  return Object.fromEntries(
    [...byKind].map(([k, v]) => [
      k,
      { ...v, ms: round(v.ms), filesPerSecond: round(v.files / (v.ms / 1000), 0) },
    ]),
  );
}

const given = process.argv.slice(2);
const synthetic = given.length === 0 ? await syntheticTree() : null;
const paths = synthetic ? [synthetic] : given;
try {
  await scanTree(paths); // warm-up: JIT, file cache
  const samples: number[] = [];
  const cpu: number[] = [];
  let last = await scanTree(paths);
  for (let i = 0; i < ITERATIONS; i++) {
    const before = process.cpuUsage();
    last = await scanTree(paths);
    const used = process.cpuUsage(before);
    cpu.push((used.user + used.system) / 1000);
    samples.push(last.ms);
  }
  const timing = summarize(samples);
  const cpuTiming = summarize(cpu);
  const seconds = timing.medianMs / 1000;
  const refs = last.references;
  const result = {
    bench: "scan",
    target: synthetic ? `synthetic: ${COPIES} copies of test/fixtures/scan/tree` : given.join(" "),
    files: last.stats.files,
    bytes: last.stats.bytes,
    skipped: {
      ignored: last.stats.ignored,
      vendored: last.stats.vendored,
      binary: last.stats.binary,
      large: last.stats.large,
    },
    references: refs.length,
    repos: new Set(refs.map((r) => r.repo)).size,
    floating: refs.filter((r) => r.floating).length,
    scan: timing,
    /** CPU time of the process (user + system): the figure that holds on a machine shared with other work. */
    cpu: cpuTiming,
    filesPerSecond: round(last.stats.files / seconds, 0),
    filesPerCpuSecond: round(last.stats.files / (cpuTiming.medianMs / 1000), 0),
    mbPerSecond: round(last.stats.bytes / 2 ** 20 / seconds),
    loadAverage: loadavg().map((l) => round(l, 1)),
    byKind: await perKind(paths),
    machine: machine(),
  };
  console.log(JSON.stringify(result));
} finally {
  if (synthetic) await rm(synthetic, { recursive: true, force: true });
}
