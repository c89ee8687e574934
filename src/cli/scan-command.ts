import { writeFile } from "node:fs/promises";
import pkg from "../../package.json" with { type: "json" };
import type { Config } from "../config/env.ts";
import { exitCodeOf, type FailOn, type ScanReport } from "../core/scan/check.ts";
import { toSarif } from "../core/scan/sarif.ts";
import { renderTable, summarize, summaryLines } from "../core/scan/table.ts";
import type { Db } from "../db/types.ts";
import { bootServices } from "../main/boot.ts";
import { AdvisorySourceError, apiAdvisories, storeAdvisories } from "../services/scan/advisory-sources.ts";
import { checkReferences } from "../services/scan/check-references.ts";
import { planPins, writePins } from "../services/scan/fix-pins.ts";
import { firstKnown, hubRevisions, type RevisionSource, storeRevisions } from "../services/scan/revisions.ts";
import { reposOf, scanTree, type TreeScan } from "../services/scan/scan-tree.ts";

export type ScanFormat = "table" | "json" | "sarif";

export type ScanOptions = {
  /** An OSV-compatible server; unset: the local store. */
  api?: string;
  format: ScanFormat;
  /** Write the report here instead of stdout. */
  output?: string;
  failOn: FailOn[];
  /** Never ask the Hub (tags, short shas and, with --api, heads stay unresolved). */
  offline?: boolean;
  fixPins?: boolean;
  write?: boolean;
};

type Out = { write(s: string): unknown };

/** What tests and the demo hand in instead of the configured store and Hub. */
type ScanIo = {
  out: Out;
  err: Out;
  cwd: string;
  db?: Db;
  storeLabel?: string;
  hubUrl?: string;
  fetch?: typeof fetch;
};

type Store = { db: Db; label: string; close(): Promise<void> };

async function openStore(config: Config, io: ScanIo): Promise<Store> {
  if (io.db) return { db: io.db, label: io.storeLabel ?? "the local store", close: async () => {} };
  const booted = await bootServices(config);
  const where = booted.kind === "pg" ? "PostgreSQL" : `PGlite in ${config.HUBWATCH_DATA_DIR}`;
  return { db: booted.services.db, label: `the local store (${where})`, close: () => booted.close() };
}

function revisionSource(
  config: Config,
  io: ScanIo,
  opts: ScanOptions,
  store: Store | null,
  warn: (m: string) => void,
): RevisionSource {
  const sources: RevisionSource[] = store ? [storeRevisions(store.db)] : [];
  if (!opts.offline) {
    const hubUrl = io.hubUrl ?? config.HF_ENDPOINT;
    sources.push(
      hubRevisions(
        {
          hubUrl,
          ...(config.HF_TOKEN && { accessToken: config.HF_TOKEN }),
          ...(io.fetch && { fetch: io.fetch }),
          attempts: 2,
          timeoutMs: 15_000,
        },
        warn,
      ),
    );
  }
  return firstKnown(sources);
}

function formatReport(report: ScanReport, format: ScanFormat, api: string | undefined): string {
  if (format === "table") return renderTable(report);
  if (format === "json") {
    const { source, files, references, warnings } = report;
    return `${JSON.stringify({ version: 1, tool: "hubwatch", source, files, summary: summarize(report), references, warnings }, null, 2)}\n`;
  }
  const base = api?.replace(/\/+$/, "");
  const sarif = toSarif(report, {
    toolVersion: pkg.version,
    ...(base && { advisoryUrl: (id: string) => `${base}/v1/vulns/${id}` }),
  });
  return `${JSON.stringify(sarif, null, 2)}\n`;
}

async function fixPins(
  tree: TreeScan,
  revisions: RevisionSource,
  opts: ScanOptions,
  io: ScanIo,
): Promise<number> {
  const floating = tree.references.filter((r) => r.floating);
  const heads = await revisions.heads([...new Set(floating.map((r) => r.repo))]);
  const plan = await planPins(floating, heads, io.cwd);
  io.out.write(plan.diff);
  for (const n of plan.notPinned)
    io.err.write(`not pinned: ${n.ref.file}:${n.ref.line}:${n.ref.column} ${n.ref.repo}: ${n.reason}\n`);
  if (opts.write) await writePins(plan, io.cwd);
  const verb = opts.write ? "pinned" : "would pin (run again with --write to apply)";
  io.err.write(
    `hubwatch scan: ${verb} ${plan.pinned} reference(s) in ${plan.changes.length} file(s); ${plan.notPinned.length} left floating\n`,
  );
  return 0;
}

async function report(
  tree: TreeScan,
  revisions: RevisionSource,
  store: Store | null,
  opts: ScanOptions,
  io: ScanIo,
  warnings: string[],
): Promise<number> {
  const advisories = opts.api
    ? apiAdvisories(opts.api, io.fetch)
    : storeAdvisories((store as Store).db, (store as Store).label);
  const checked = await checkReferences(
    tree.references,
    tree.stats.files,
    { advisories, revisions, warn: (m) => warnings.push(m) },
    warnings,
  );
  const text = formatReport(checked, opts.format, opts.api);
  if (opts.output) {
    await writeFile(opts.output, text, "utf8");
    io.err.write(summaryLines(checked));
  } else io.out.write(text);
  return exitCodeOf(checked, opts.failOn);
}

/**
 * `hubwatch scan [PATH...]`: finds the model references under PATHs, checks each (repo, revision)
 * against the local store or an OSV API, and reports as a table, JSON or SARIF; `--fix-pins` instead
 * prints (and with `--write` applies) the edits that pin floating references. Exit 0 clean, 1 findings
 * (`--fail-on`), 2 errors.
 */
export async function runScan(
  config: Config,
  paths: string[],
  opts: ScanOptions,
  io: ScanIo,
): Promise<number> {
  const warnings: string[] = [];
  let store: Store | null = null;
  try {
    const tree = await scanTree(paths, { cwd: io.cwd });
    store = opts.api ? null : await openStore(config, io);
    const revisions = revisionSource(config, io, opts, store, (m) => warnings.push(m));
    return opts.fixPins
      ? await fixPins(tree, revisions, opts, io)
      : await report(tree, revisions, store, opts, io, warnings);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const known = err instanceof AdvisorySourceError || e.code === "ENOENT" || e.code === "EACCES";
    io.err.write(`hubwatch scan: ${known ? e.message : (e.stack ?? String(err))}\n`);
    return 2;
  } finally {
    await store?.close();
  }
}

/** `hubwatch watch add --from-scan PATH`: the repos a scan of PATH finds. */
export async function reposFromScan(path: string, cwd = process.cwd()): Promise<string[]> {
  return reposOf((await scanTree([path], { cwd })).references);
}
