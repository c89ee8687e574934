// One truth suite over every fixture with a truth.json: the published total must equal the derived count plus
// the extras the rules compute (stored-total.ts): buffers by family, a tied copy the files are known to hold,
// quantization scales when the source counts every stored element. No per-model numbers; a reader that throws
// fails. A fixture the rules do not explain yet carries an "unexplained" note in its truth.json and is reported
// as a todo with its gap, never as passed.
import { describe, expect, it } from "vitest";
import { modelFixtureDirs } from "../../../test/helpers/model-fixtures.ts";
import { readTruth, truthRow } from "../../../test/helpers/truth.ts";

const pct = (gap: number, total: number) => `${((gap / total) * 100).toFixed(4)}%`;

describe("published totals = derived + computed extras", () => {
  for (const dir of modelFixtureDirs()) {
    const truth = readTruth(dir);
    if (!truth) continue;
    const row = truthRow(dir);
    if (truth.unexplained) {
      const gap = row.gap ?? 0;
      it.todo(
        `UNEXPLAINED ${dir}: expected - published = ${gap.toLocaleString("en-US")} scalars (${pct(gap, row.published ?? 1)}): ${truth.unexplained}`,
      );
      it(`${dir} still has a gap (drop its "unexplained" note once the rules explain it)`, () => {
        expect(row.error).toBeUndefined();
        expect(row.gap).not.toBe(0);
      });
      continue;
    }
    it(`${dir} (${row.family}, ${row.counting})`, () => {
      expect(row.error).toBeUndefined();
      expect(row.derived).toBeGreaterThan(0);
      if (row.published === null) return;
      expect(row.expected).toBe(row.published);
    });
  }
});
