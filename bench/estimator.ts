/**
 * `npm run bench:estimator`: for every fixture with a truth.json, derived vs stored parameters (table written
 * into docs/ESTIMATOR.md between markers), then estimates per second over all fixture configs on one core.
 * Prints its figures as one JSON line last.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { configView } from "../src/core/estimator/config-view.ts";
import { estimate } from "../src/core/estimator/estimate.ts";
import { KNOWN_DELTAS } from "../src/core/estimator/known-deltas.ts";
import { readModel } from "../src/core/estimator/resolve.ts";
import type { ModelReading } from "../src/core/estimator/types.ts";

const ROOT = new URL("../fixtures/models/", import.meta.url);
const DOC = new URL("../docs/ESTIMATOR.md", import.meta.url);
const START = "<!-- bench:estimator:start -->";
const END = "<!-- bench:estimator:end -->";

type Row = {
  model: string;
  family: string;
  derived: string;
  stored: string;
  delta: string;
  adjusted: string;
  reason: string;
};

const read = (m: string, f: string): unknown => JSON.parse(readFileSync(new URL(`${m}/${f}`, ROOT), "utf8"));
const folders = readdirSync(ROOT).filter((m) => existsSync(new URL(`${m}/config.json`, ROOT)));
const pct = (d: number) => `${d >= 0 ? "+" : ""}${(d * 100).toFixed(3)}%`;
const int = (n: number) => n.toLocaleString("en-US");

type Truth = {
  params_total: number | null;
  tied_embedding_stored_twice?: boolean | null;
  confidence?: string;
};

/** Totals INDEX.md records for fixtures whose truth.json has none. */
const INDEX_TOTALS: Record<string, { total: number; source: string }> = {
  "ivrit-ai__whisper-large-v3-turbo": {
    total: 808_878_080,
    source: "INDEX.md: openai/whisper-large-v3-turbo, F16, HF API",
  },
};

/** Known extra scalars: the table in known-deltas.ts, else a tied embedding truth.json says is stored twice. */
function knownExtra(
  m: string,
  truth: Truth,
  reading: ModelReading,
): { scalars: number; reason: string } | undefined {
  if (KNOWN_DELTAS[m]) return KNOWN_DELTAS[m];
  if (truth.tied_embedding_stored_twice && reading.tiedEmbedding) {
    return { scalars: reading.embeddingParams, reason: "tied embedding stored twice (truth.json)" };
  }
  return undefined;
}

function row(
  m: string,
  family: string,
  derived: string,
  stored: string,
  delta = "-",
  adjusted = "-",
  reason = "",
): Row {
  return { model: m, family, derived, stored, delta, adjusted, reason };
}

function truthRow(m: string): { row: Row; within: boolean | null } {
  const truth = read(m, "truth.json") as Truth;
  let e: ReturnType<typeof estimate>;
  let reading: ModelReading;
  try {
    e = estimate(read(m, "config.json"));
    reading = readModel(configView(read(m, "config.json")));
  } catch (err) {
    return {
      row: row(m, "-", "error", String(truth.params_total ?? "-"), "-", "-", (err as Error).message),
      within: false,
    };
  }
  const fromIndex = INDEX_TOTALS[m];
  const stored = truth.params_total ?? fromIndex?.total ?? null;
  if (stored === null)
    return {
      row: row(m, e.family, int(e.params.total), "unknown", "-", "-", "no published total"),
      within: null,
    };
  const known = knownExtra(m, truth, reading);
  const delta = (e.params.total - stored) / stored;
  const adjusted = (e.params.total + (known?.scalars ?? 0) - stored) / stored;
  const notes = [
    truth.params_total === null && fromIndex ? fromIndex.source : "",
    known?.reason ?? "",
  ].filter(Boolean);
  if (adjusted !== 0 && !known) {
    const conf = truth.confidence ? `; truth confidence: ${truth.confidence}` : "";
    notes.push(Math.abs(adjusted) < 0.005 ? `within 0.5%, not exact${conf}` : `unexplained${conf}`);
  }
  return {
    row: row(m, e.family, int(e.params.total), int(stored), pct(delta), pct(adjusted), notes.join("; ")),
    within: Math.abs(adjusted) < 0.005,
  };
}

const rows: Row[] = [];
let within = 0;
let compared = 0;
for (const m of folders.filter((f) => existsSync(new URL(`${f}/truth.json`, ROOT)))) {
  const r = truthRow(m);
  rows.push(r.row);
  if (r.within !== null) {
    compared++;
    if (r.within) within++;
  }
}

// Throughput: every fixture config that estimates, parsed once, estimated in a loop for ~2 s.
const configs = folders
  .map((m) => read(m, "config.json"))
  .filter((c) => {
    try {
      estimate(c);
      return true;
    } catch {
      return false;
    }
  });
/** Estimates per wall second and per CPU second (process user + system time: fair on a shared, loaded machine). */
function rate(cs: unknown[], ms: number): { wall: number; cpu: number; n: number; seconds: number } {
  for (let i = 0; i < 5; i++) for (const c of cs) estimate(c); // warm up the JIT
  let n = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  while (performance.now() - t0 < ms) {
    for (const c of cs) {
      estimate(c);
      n++;
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(c0);
  return { wall: Math.round(n / seconds), cpu: Math.round(n / ((cpu.user + cpu.system) / 1e6)), n, seconds };
}

const all = rate(configs, 3000);
const perFixture = configs.map((c) => rate([c], 60).cpu).sort((a, b) => a - b);
const median = perFixture[Math.floor(perFixture.length / 2)] ?? 0;
const perSecond = all.cpu;

const table = [
  `Generated by \`npm run bench:estimator\` on ${new Date().toISOString().slice(0, 10)}: ${within} of ${compared} fixtures with a published total within 0.5% after known extras; ${int(perSecond)} estimates per CPU-second over all ${configs.length} fixture configs round-robin (${int(all.wall)} per wall second on a shared machine; median single fixture ${int(median)}/s, slowest ${int(perFixture[0] ?? 0)}/s).`,
  "",
  "| model | family | derived | stored | delta | after known extras | reason |",
  "|---|---|---:|---:|---:|---:|---|",
  ...rows.map(
    (r) =>
      `| ${r.model} | ${r.family} | ${r.derived} | ${r.stored} | ${r.delta} | ${r.adjusted} | ${r.reason} |`,
  ),
].join("\n");

if (existsSync(DOC)) {
  const doc = readFileSync(DOC, "utf8");
  const a = doc.indexOf(START);
  const b = doc.indexOf(END);
  if (a >= 0 && b > a) writeFileSync(DOC, `${doc.slice(0, a + START.length)}\n${table}\n${doc.slice(b)}`);
  else console.error("docs/ESTIMATOR.md has no bench markers; table not written");
}
console.log(table);
console.log(
  JSON.stringify({
    fixtures_with_total: compared,
    within_half_percent: within,
    estimates_per_second: perSecond,
    estimates_per_wall_second: all.wall,
    median_fixture_per_second: median,
    slowest_fixture_per_second: perFixture[0] ?? 0,
    configs: configs.length,
    estimates: all.n,
    seconds: Number(all.seconds.toFixed(2)),
  }),
);
