/**
 * The Structure section of the Markdown page: every node (`full`), or folded, one row per run of identical
 * repeated blocks ("Layers 1-28 (x28)"), the nodes outside them as they are.
 */
import type { Estimate, StructureJson } from "./estimate-json.ts";
import { int } from "./markdown-format.ts";

type Row = { first: number; last: number; name: string; type: string; shape: string; params: string };

const shapeText = (s: number[]) => s.join(" × ");
const paramsText = (n: StructureJson) => (n.tied_to ? `tied to ${n.tied_to}` : int(n.params));

/** One layer's nodes: [start, end) indexes into the structure. */
type Block = { tower: string; layer: number; start: number; end: number; signature: string };

function blocks(s: StructureJson[]): Block[] {
  const out: Block[] = [];
  for (let i = 0; i < s.length; ) {
    const n = s[i]!;
    if (n.layer === undefined) {
      i++;
      continue;
    }
    let j = i;
    const parts: string[] = [];
    while (j < s.length && s[j]!.layer === n.layer && s[j]!.tower === n.tower) {
      parts.push(`${s[j]!.type}:${s[j]!.shape.join("x")}:${s[j]!.params}`);
      j++;
    }
    out.push({ tower: n.tower, layer: n.layer, start: i, end: j, signature: parts.join("|") });
    i = j;
  }
  return out;
}

function blockRow(s: StructureJson[], run: Block[]): Row {
  const a = run[0]!;
  const b = run.at(-1)!;
  const nodes = s.slice(a.start, a.end);
  const per = nodes.reduce((x, n) => x + n.params, 0);
  const prefix = a.tower === "text" || a.tower === "encoder" ? "" : `${a.tower} `;
  const layers = run.length > 1 ? `layers ${a.layer}–${b.layer} (×${run.length})` : `layer ${a.layer}`;
  return {
    first: a.start + 1,
    last: b.end,
    name: `${prefix}${layers}`,
    type: nodes.map((n) => n.type).join(" → "),
    shape: shapeText(nodes.at(-1)!.shape),
    params: run.length > 1 ? `${run.length} × ${int(per)}` : int(per),
  };
}

/** Rows of the folded table: runs of consecutive identical layers of one tower become one row. */
function foldedRows(s: StructureJson[]): Row[] {
  const rows: Row[] = [];
  const bs = blocks(s);
  const byStart = new Map(bs.map((b, i) => [b.start, i]));
  for (let i = 0; i < s.length; ) {
    const k = byStart.get(i);
    if (k === undefined) {
      const n = s[i]!;
      rows.push({
        first: i + 1,
        last: i + 1,
        name: n.name,
        type: n.type,
        shape: shapeText(n.shape),
        params: paramsText(n),
      });
      i++;
      continue;
    }
    let m = k;
    while (
      m + 1 < bs.length &&
      bs[m + 1]!.start === bs[m]!.end &&
      bs[m + 1]!.signature === bs[k]!.signature &&
      bs[m + 1]!.tower === bs[k]!.tower
    )
      m++;
    rows.push(blockRow(s, bs.slice(k, m + 1)));
    i = bs[m]!.end;
  }
  return rows;
}

function fullRows(s: StructureJson[]): Row[] {
  return s.map((n, i) => ({
    first: i + 1,
    last: i + 1,
    name: n.name,
    type: n.type,
    shape: shapeText(n.shape),
    params: paramsText(n),
  }));
}

export function structureSection(e: Estimate, full: boolean): string[] {
  const s = e.structure;
  if (s.length === 0) return ["## Structure", "", "No structure was read (see the missing figures above)."];
  const rows = full ? fullRows(s) : foldedRows(s);
  const note = full
    ? `${s.length} nodes, batch dimension excluded.`
    : `${s.length} nodes in ${rows.length} rows, batch dimension excluded: each run of identical layers is one row (per-layer parameters x layers). \`--full\` lists every node.`;
  const out = [
    "## Structure",
    "",
    note,
    "",
    "| # | Layer | Type | Output shape | Params |",
    "|---:|---|---|---|---:|",
  ];
  for (const r of rows) {
    const idx = r.first === r.last ? String(r.first) : `${r.first}–${r.last}`;
    out.push(`| ${idx} | ${r.name} | ${r.type} | ${r.shape} | ${r.params} |`);
  }
  return out;
}
