import { describe, expect, it } from "vitest";
import { parseBadgeOverrides, renderBadgeSvg } from "./render.ts";
import { isKnownMetric, missingBadge } from "./states.ts";
import { validateEndpointBadge } from "./validate.ts";

describe("missingBadge", () => {
  it("says why a metric has no value", () => {
    const ok = { status: "ok", hasBadges: false };
    expect(missingBadge("params", ok).message).toBe("no data yet");
    expect(missingBadge("parms", ok)).toMatchObject({ message: "unknown metric", color: "red" });
    expect(missingBadge("fit-lora-h200-141-gb", { status: "ok", hasBadges: true }).message).toBe(
      "unknown metric",
    );
    expect(missingBadge("params", { status: "gated", hasBadges: false }).message).toBe(
      "gated: needs HF_TOKEN",
    );
    expect(missingBadge("params", { status: "not_found", hasBadges: false }).message).toBe("repo not found");
    for (const status of ["ok", "gated", "not_found"])
      expect(validateEndpointBadge(missingBadge("x", { status, hasBadges: false })).valid).toBe(true);
    expect(isKnownMetric("fit-full-finetune-a100-80-gb")).toBe(true);
    expect(isKnownMetric("fit-train-a100")).toBe(false);
  });
});

describe("badge overrides", () => {
  const badge = {
    schemaVersion: 1,
    label: "params",
    message: "4.02B",
    color: "blue",
    cacheSeconds: 300,
  } as const;
  it("reads shields' style, label and color parameters and drops bad ones", () => {
    expect(parseBadgeOverrides({ style: "for-the-badge", label: "size", color: "ff0000" })).toEqual({
      style: "for-the-badge",
      label: "size",
      color: "ff0000",
    });
    expect(parseBadgeOverrides({ style: "shiny", color: "red;x", label: ["a"] })).toEqual({});
  });
  it("renders them", () => {
    const plain = renderBadgeSvg(badge);
    const big = renderBadgeSvg(badge, { style: "for-the-badge", label: "<size>", color: "ff0000" });
    expect(big).not.toBe(plain);
    expect(big).toContain("SIZE"); // for-the-badge upper-cases, and escapes
    expect(big).toContain("&lt;");
    expect(big).toContain("#ff0000");
    expect(plain).toContain("params");
  });
});
