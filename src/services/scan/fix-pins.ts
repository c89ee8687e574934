import { readFile, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { createTwoFilesPatch } from "diff";
import { applyPins, type PlannedPin } from "../../core/scan/fix-pins.ts";
import type { ModelReference } from "../../core/scan/types.ts";

type NotPinned = { ref: ModelReference; reason: string };
type PinPlan = {
  /** Unified diff of every file that changes (`a/` and `b/` prefixes, like `git diff`). */
  diff: string;
  changes: { file: string; before: string; after: string }[];
  pinned: number;
  notPinned: NotPinned[];
};

/**
 * Plans `--fix-pins`: every floating reference with a known head and a safe edit gets pinned to that
 * head; the others are listed with the reason. Reads the files; writes nothing.
 */
export async function planPins(
  refs: ModelReference[],
  heads: Map<string, string>,
  cwd: string,
): Promise<PinPlan> {
  const notPinned: NotPinned[] = [];
  const byFile = new Map<string, { ref: ModelReference; pin: PlannedPin }[]>();
  for (const ref of refs.filter((r) => r.floating)) {
    const sha = heads.get(ref.repo);
    if (!sha) notPinned.push({ ref, reason: "head unknown" });
    else if (!ref.pin)
      notPinned.push({ ref, reason: `no safe edit for ${ref.context}: pin it by hand to ${sha}` });
    else byFile.set(ref.file, [...(byFile.get(ref.file) ?? []), { ref, pin: { edit: ref.pin, sha } }]);
  }
  const plan: PinPlan = { diff: "", changes: [], pinned: 0, notPinned };
  for (const [file, items] of byFile) {
    const before = await readFile(resolve(cwd, file), "utf8");
    const { text: after, skipped } = applyPins(
      before,
      items.map((i) => i.pin),
    );
    for (const s of skipped) {
      const ref = items.find((i) => i.pin === s)?.ref;
      if (ref) notPinned.push({ ref, reason: "its edit overlaps another pin in the same place" });
    }
    plan.pinned += items.length - skipped.length;
    if (after === before) continue;
    plan.changes.push({ file, before, after });
    plan.diff += createTwoFilesPatch(`a/${file}`, `b/${file}`, before, after, "", "", { context: 2 })
      .split("\n")
      .slice(1)
      .join("\n");
  }
  return plan;
}

/** Writes the planned files (only with `--write`). */
export async function writePins(plan: PinPlan, cwd: string): Promise<void> {
  for (const c of plan.changes) await writeFile(resolve(cwd, c.file), c.after, "utf8");
}
