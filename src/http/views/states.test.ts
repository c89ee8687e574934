import { describe, expect, it } from "vitest";
import { NO_CONFIG } from "../../services/estimate-revision.ts";
import { pairLines, renderPromptDiff } from "./prompt-diff.ts";
import { estimateState, noChangesText, repoStatusNote, withoutUrls } from "./states.ts";

describe("states", () => {
  it("removes URLs from stored Hub errors", () => {
    expect(withoutUrls("Hub 401 for http://127.0.0.1:8090/api/models/a/b/tree/main: Unauthorized")).toBe(
      "Hub 401: Unauthorized",
    );
    expect(withoutUrls("fetch failed at https://10.0.0.5/x")).toBe("fetch failed at (address hidden)");
  });
  it("says gated, not found, not fetched and no config in words, with no URL", () => {
    const gated = String(repoStatusNote("gated", "Hub 401 for http://127.0.0.1:9/x: no"));
    expect(gated).toContain("needs a token with access (HF_TOKEN)");
    expect(gated).not.toContain("127.0.0.1");
    expect(String(repoStatusNote("not_found", null))).toContain("Not found on the Hub");
    expect(String(repoStatusNote("error", "Hub 503 for http://h/x: busy"))).not.toContain("http://");
    expect(repoStatusNote("ok", null)).toBeNull();
    expect(String(noChangesText({ status: "pending" }, "gated"))).toContain("not fetched yet (needs a token");
    expect(String(noChangesText({ status: "done" }, "ok"))).toContain("no tracked file changed");
    const noConfig = String(estimateState({ result: null, error: NO_CONFIG }, { status: "done" }));
    expect(noConfig).toContain("No config yet");
    expect(noConfig).not.toContain("failed");
    expect(String(estimateState(undefined, { status: "pending" }))).toContain("Not fetched yet");
    expect(estimateState({ result: { params: {} }, error: null }, { status: "done" })).toBeNull();
  });
});

describe("prompt diff", () => {
  it("pairs removed with added lines and keeps unchanged lines side by side", () => {
    const rows = pairLines("<s>system\nhi\n</s>", "<s>system\nhi \n</s>\n");
    expect(rows).toEqual([
      { before: "<s>system\n", after: "<s>system\n", changed: false },
      { before: "hi\n", after: "hi \n", changed: true },
      { before: "</s>", after: "</s>\n", changed: true },
    ]);
    expect(pairLines("a\n", "a\nb\n")).toEqual([
      { before: "a\n", after: "a\n", changed: false },
      { before: null, after: "b\n", changed: true },
    ]);
  });
  it("makes whitespace visible on changed lines only, escaped", () => {
    const out = String(renderPromptDiff("<b>x\ny\n", "<b>x\ny \t\n"));
    expect(out).toContain("<td><pre>&lt;b&gt;x</pre></td>");
    expect(out).toContain('<td class="add"><pre>y<span class="ws">·</span><span class="ws">→</span>');
    expect(out).toContain('class="changed-line"');
    expect(out).not.toContain("<b>");
  });
});
