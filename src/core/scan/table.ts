import type { CheckedReference, ScanReport } from "./check.ts";

const short = (sha: string | null) => (sha ? sha.slice(0, 12) : "");

function revisionCell(ref: CheckedReference): string {
  if (ref.dynamicRevision) return "(expression)";
  if (ref.floating) return ref.revision ? `${ref.revision} (floating)` : "(floating)";
  if (ref.revisionKind === "sha") return short(ref.revision);
  return ref.sha ? `${ref.revision} = ${short(ref.sha)}` : (ref.revision ?? "");
}

/** What each reference amounts to, one line per advisory, else one line. */
function findingLines(ref: CheckedReference): string[] {
  const lines = ref.advisories.map((a) => `${a.id} ${a.summary ?? ""}`.trim());
  if (ref.floating) lines.push(ref.pinTo ? `pin to ${ref.pinTo}` : "head unknown: not watched");
  if (lines.length > 0) return lines;
  if (ref.status === "unresolved") return ["revision not resolved"];
  if (ref.status === "dynamic") return ["revision is an expression: not checked"];
  return ["no advisory"];
}

function pad(cells: string[], widths: number[]): string {
  return cells
    .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
    .join("  ")
    .trimEnd();
}

/** Counts for the summary line and the JSON report. */
export function summarize(report: ScanReport) {
  const refs = report.references;
  return {
    references: refs.length,
    repos: new Set(refs.map((r) => r.repo)).size,
    files: new Set(refs.map((r) => r.file)).size,
    advisoryHits: refs.reduce((n, r) => n + r.advisories.length, 0),
    affectedReferences: refs.filter((r) => r.advisories.length > 0).length,
    floating: refs.filter((r) => r.floating).length,
    notChecked: refs.filter((r) => r.status !== "checked").length,
  };
}

/** A table for people: location, model, revision, finding; then a one-line summary and warnings. */
export function renderTable(report: ScanReport): string {
  const header = ["LOCATION", "MODEL", "REVISION", "FINDING"];
  const rows: string[][] = [];
  for (const ref of report.references) {
    const [first = "", ...rest] = findingLines(ref);
    rows.push([`${ref.file}:${ref.line}:${ref.column}`, ref.repo, revisionCell(ref), first]);
    for (const line of rest) rows.push(["", "", "", line]);
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const lines = rows.length > 0 ? [pad(header, widths), ...rows.map((r) => pad(r, widths))] : [];
  return `${[...lines, summaryLines(report)].join("\n")}`;
}

/** The summary line, then one line per warning. */
export function summaryLines(report: ScanReport): string {
  const s = summarize(report);
  const lines = [
    `${s.references} model reference(s) to ${s.repos} repo(s) in ${s.files} of ${report.files} file(s), checked against ${report.source}: ` +
      `${s.advisoryHits} advisory hit(s) on ${s.affectedReferences} reference(s), ${s.floating} floating, ${s.notChecked} not checked`,
    ...report.warnings.map((w) => `warning: ${w}`),
  ];
  return `${lines.join("\n")}\n`;
}
