import type { PinEdit } from "./types.ts";

export type PlannedPin = { edit: PinEdit; sha: string };

/**
 * The text with every pin applied (each edit replaces [start, end) with before + sha + after).
 * Identical edits (two references sharing one `revision` default) apply once; an edit overlapping
 * another one is skipped and returned, so nothing is written half-understood.
 */
export function applyPins(text: string, pins: PlannedPin[]): { text: string; skipped: PlannedPin[] } {
  const unique = new Map<string, PlannedPin>();
  for (const p of pins)
    unique.set(`${p.edit.start}:${p.edit.end}:${p.edit.before}${p.sha}${p.edit.after}`, p);
  const ordered = [...unique.values()].sort((a, b) => a.edit.start - b.edit.start || a.edit.end - b.edit.end);
  const kept: PlannedPin[] = [];
  const skipped: PlannedPin[] = [];
  for (const p of ordered) {
    const prev = kept.at(-1);
    const overlaps =
      prev &&
      (p.edit.start < prev.edit.end || (p.edit.start === prev.edit.start && p.edit.start === p.edit.end));
    if (overlaps) skipped.push(p);
    else kept.push(p);
  }
  let out = text;
  for (const p of [...kept].reverse()) {
    out = out.slice(0, p.edit.start) + p.edit.before + p.sha + p.edit.after + out.slice(p.edit.end);
  }
  return { text: out, skipped };
}
