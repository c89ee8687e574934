import { describe, expect, it } from "vitest";
import {
  buildQueries,
  type CheckedReference,
  checkedReference,
  exitCodeOf,
  type ScanReport,
} from "./check.ts";
import { findReferences } from "./find-references.ts";
import { FLOATING_RULE_ID, toSarif } from "./sarif.ts";
import { renderTable } from "./table.ts";

const A = "a".repeat(40);
const B = "b".repeat(40);

const src = `m = AutoModel.from_pretrained("acme/pinned", revision="${A}")\nt = AutoTokenizer.from_pretrained("acme/float")\nx = AutoModel.from_pretrained("acme/tag", revision="v1")\n`;
const [pinned, floating, tagged] = findReferences("app.py", src);

function report(refs: CheckedReference[]): ScanReport {
  return { source: "test", files: 1, references: refs, warnings: [] };
}

const hit = {
  id: "x_HUBWATCH-2026-0001",
  summary: "Parameter count changed",
  modified: "2026-01-01T00:00:00Z",
};

describe("checking", () => {
  it("asks one query per distinct (repo, commit), as a purl at the commit", () => {
    const { keys, queries } = buildQueries([
      { repo: "acme/a", sha: A },
      { repo: "acme/a", sha: A },
      { repo: "acme/a", sha: B },
    ]);
    expect(keys).toEqual([`acme/a@${A}`, `acme/a@${B}`]);
    expect(queries).toEqual([
      { package: { purl: `pkg:huggingface/acme/a@${A}` } },
      { package: { purl: `pkg:huggingface/acme/a@${B}` } },
    ]);
  });

  it("exits like osv-scanner: 1 only for the kinds --fail-on names", () => {
    const clean = report([checkedReference(pinned!, A, [])]);
    const affected = report([checkedReference(pinned!, A, [hit])]);
    const floats = report([checkedReference(floating!, B, [])]);
    expect([exitCodeOf(clean, ["advisory"]), exitCodeOf(clean, ["advisory", "floating"])]).toEqual([0, 0]);
    expect([exitCodeOf(affected, ["advisory"]), exitCodeOf(affected, ["floating"])]).toEqual([1, 0]);
    expect([exitCodeOf(floats, ["advisory"]), exitCodeOf(floats, ["floating"])]).toEqual([0, 1]);
  });

  it("says why a reference was not checked", () => {
    expect(checkedReference(floating!, null, []).status).toBe("head-unknown");
    expect(checkedReference(tagged!, null, []).status).toBe("unresolved");
    expect(checkedReference(floating!, B, [])).toMatchObject({ status: "checked", pinTo: B });
  });
});

describe("reports", () => {
  const checked = report([
    checkedReference(pinned!, A, [hit]),
    checkedReference(floating!, B, []),
    checkedReference(tagged!, null, []),
  ]);

  it("renders a table: advisories per reference, the sha to pin a floating one to", () => {
    const text = renderTable(checked);
    expect(text).toContain(
      `app.py:1:32  acme/pinned  ${A.slice(0, 12)}  x_HUBWATCH-2026-0001 Parameter count changed`,
    );
    expect(text).toContain(`app.py:2:36  acme/float   (floating)    pin to ${B}`);
    expect(text).toContain("app.py:3:32  acme/tag     v1            revision not resolved");
    expect(text).toContain("1 advisory hit(s) on 1 reference(s), 1 floating, 1 not checked");
  });

  it("writes one SARIF result per advisory hit and per floating reference, with the pin as a fix", () => {
    const log = toSarif(checked, {
      toolVersion: "0.1.0",
      advisoryUrl: (id) => `https://hw.example/v1/vulns/${id}`,
    });
    const run = log.runs[0]!;
    expect(
      run.results?.map(
        (r) => `${r.ruleId} ${r.level} ${r.locations?.[0]?.physicalLocation?.region?.startLine}`,
      ),
    ).toEqual(["x_HUBWATCH-2026-0001 error 1", `${FLOATING_RULE_ID} warning 2`]);
    expect(run.tool.driver.rules?.map((r) => r.id)).toEqual([FLOATING_RULE_ID, "x_HUBWATCH-2026-0001"]);
    expect(run.tool.driver.rules?.[1]?.helpUri).toBe("https://hw.example/v1/vulns/x_HUBWATCH-2026-0001");
    const replacement = run.results?.[1]?.fixes?.[0]?.artifactChanges[0]?.replacements[0];
    const offset = src.indexOf('"acme/float"') + '"acme/float"'.length;
    expect(replacement).toEqual({
      deletedRegion: { charOffset: offset, charLength: 0 },
      insertedContent: { text: `, revision="${B}"` },
    });
  });
});
