import { describe, expect, it } from "vitest";
import { buildBadges, fitMetric, notWatchedBadge } from "./build.ts";
import { renderBadgeSvg } from "./render.ts";
import { validateEndpointBadge } from "./validate.ts";

const fit = [
  { card: "A100 80 GB", mode: "lora", verdict: "fits", batch: 5, split: null, text: "batch 5" },
  { card: "T4 16 GB", mode: "full_finetune", verdict: "does_not_fit", batch: 0, split: null, text: "" },
  {
    card: "L4 24 GB",
    mode: "serve",
    verdict: "cards",
    batch: 1,
    split: [20, 16],
    text: "2 cards at batch 1 (20 + 16 layers)",
  },
];

describe("buildBadges", () => {
  it("builds every metric in the endpoint format", () => {
    const badges = buildBadges({
      params_total: 4022468096,
      params_active: 3353032704,
      fit,
      tied_embedding_stored_twice: true,
      open_advisories: 2,
    });
    expect(Object.keys(badges).sort()).toEqual([
      "active-params",
      "advisories",
      "fit-full-finetune-t4-16-gb",
      "fit-lora-a100-80-gb",
      "fit-serve-l4-24-gb",
      "params",
      "tied-embedding",
    ]);
    expect(badges.params).toEqual({
      schemaVersion: 1,
      label: "params",
      message: "4.02B",
      color: "blue",
      cacheSeconds: 300,
    });
    expect(badges["fit-lora-a100-80-gb"]).toMatchObject({
      label: "lora on A100 80 GB",
      message: "batch 5",
      color: "brightgreen",
    });
    expect(badges["fit-full-finetune-t4-16-gb"]).toMatchObject({ message: "does not fit", color: "red" });
    expect(badges["fit-serve-l4-24-gb"]).toMatchObject({
      message: "2 cards at batch 1 (20 + 16 layers)",
      color: "orange",
    });
    expect(badges["tied-embedding"]).toMatchObject({ message: "stored twice", color: "orange" });
    expect(badges["active-params"]).toMatchObject({
      label: "active params",
      message: "3.35B",
      color: "blue",
    });
    expect(badges.advisories).toMatchObject({ message: "2 open", color: "red" });
    for (const b of Object.values(badges)) {
      expect(Object.keys(b).sort()).toEqual(["cacheSeconds", "color", "label", "message", "schemaVersion"]);
      expect(validateEndpointBadge(b)).toEqual({ valid: true, errors: [] });
    }
  });

  it("gives grey 'unknown' badges for missing values", () => {
    const badges = buildBadges({ open_advisories: 0 }, 600);
    expect(badges.params).toEqual({
      schemaVersion: 1,
      label: "params",
      message: "unknown",
      color: "lightgrey",
      cacheSeconds: 600,
    });
    expect(badges["tied-embedding"]?.message).toBe("unknown");
    expect(badges.advisories).toMatchObject({ message: "none", color: "brightgreen" });
    expect(fitMetric("H100 / A100 80 GB", "lora")).toBe("fit-lora-h100-a100-80-gb");
  });

  it("has a grey not-watched badge", () => {
    const b = notWatchedBadge("params");
    expect(b).toEqual({
      schemaVersion: 1,
      label: "params",
      message: "not watched",
      color: "lightgrey",
      cacheSeconds: 300,
    });
    expect(validateEndpointBadge(b).valid).toBe(true);
  });
});

describe("validateEndpointBadge", () => {
  const ok = { schemaVersion: 1, label: "params", message: "4.02B", color: "blue", cacheSeconds: 300 };

  it("accepts the documented optional keys", () => {
    expect(
      validateEndpointBadge({ ...ok, namedLogo: "huggingface", logoColor: "white", style: "flat-square" })
        .valid,
    ).toBe(true);
    expect(validateEndpointBadge({ schemaVersion: 1, label: "", message: "x" }).valid).toBe(true);
  });

  it.each([
    ["an unknown key", { ...ok, link: ["https://x"] }],
    ["an empty message", { ...ok, message: "" }],
    ["a wrong schemaVersion", { ...ok, schemaVersion: 2 }],
    ["a negative cacheSeconds", { ...ok, cacheSeconds: -1 }],
    ["a fractional cacheSeconds", { ...ok, cacheSeconds: 1.5 }],
    ["namedLogo with logoSvg", { ...ok, namedLogo: "github", logoSvg: "<svg/>" }],
    ["logoColor without namedLogo", { ...ok, logoColor: "red" }],
    ["a missing label", { schemaVersion: 1, message: "x" }],
    ["a non-object", "params"],
  ])("rejects %s", (_what, json) => {
    const r = validateEndpointBadge(json);
    expect(r.valid).toBe(false);
    expect(r.errors.length).toBeGreaterThan(0);
  });
});

describe("renderBadgeSvg", () => {
  it("renders an SVG with label and message", () => {
    const svg = renderBadgeSvg({
      schemaVersion: 1,
      label: "params",
      message: "4.02B",
      color: "blue",
      cacheSeconds: 300,
    });
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toContain("4.02B");
  });

  it("escapes markup in the label", () => {
    const svg = renderBadgeSvg({
      schemaVersion: 1,
      label: '<script>alert("x")</script>',
      message: "a & b",
      color: "red",
      cacheSeconds: 300,
    });
    expect(svg).not.toContain("<script>");
    expect(svg).toContain("&lt;script&gt;");
    expect(svg).toContain("a &amp; b");
  });
});
