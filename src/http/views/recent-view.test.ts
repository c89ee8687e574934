import { describe, expect, it } from "vitest";
import type { RecentData } from "../../services/http/recent.ts";
import { renderRecent } from "./recent-view.ts";

const day = (n: number) => new Date(Date.UTC(2026, 2, n));
const data: RecentData = {
  kind: "all",
  changes: [
    {
      repo: "a/m",
      sha: "1".repeat(40),
      title: "<b>t</b>",
      at: day(2),
      path: "config.json",
      category: "config",
      summary: "x",
      promptChanged: null,
    },
    {
      repo: "a/m",
      sha: "1".repeat(40),
      title: "<b>t</b>",
      at: day(2),
      path: "model.safetensors",
      category: "weights",
      summary: "y",
      promptChanged: null,
    },
  ],
  behavior: [
    { repo: "a/m", sha: "2".repeat(40), title: null, at: day(3), kind: "eos_token", summary: "eos 1 -> 2" },
  ],
  advisories: [
    {
      id: "x_HUBWATCH-2026-0001",
      repo: "a/m",
      status: "closed",
      published: day(1),
      modified: day(4),
      introducedSha: "0".repeat(40),
      fixedSha: "3".repeat(40),
      summary: "Parameter count changed",
    },
  ],
};

describe("renderRecent", () => {
  it("merges changes per revision, behaviour changes and advisory openings and closings, newest first", () => {
    const out = String(renderRecent(data));
    const order = ["advisory closed", "eos token", 'class="chip config"', "advisory opened"].map((s) =>
      out.indexOf(s),
    );
    expect(order.every((i) => i >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // Two file changes of one revision are one entry.
    expect(out.match(/<li class="event change">/g)).toHaveLength(1);
    expect(out).toContain("&lt;b&gt;t&lt;/b&gt;");
    expect(out).toContain('<a href="/" aria-current="page"><strong>everything</strong></a>');
  });
  it("keeps at most `limit` entries and says when there is nothing", () => {
    expect(String(renderRecent(data, 1)).match(/<li class="event /g)).toHaveLength(1);
    expect(String(renderRecent({ kind: "weights", changes: [], behavior: [], advisories: [] }))).toContain(
      "Nothing of this kind yet.",
    );
  });
});
