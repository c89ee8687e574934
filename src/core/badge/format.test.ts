import { describe, expect, it } from "vitest";
import { formatParams } from "./format.ts";

describe("formatParams", () => {
  it.each([
    [4022468096, "4.02B"],
    [124697947, "125M"],
    [2031739904, "2.03B"],
    [480154875392, "480B"],
    [1_500_000_000_000, "1.50T"],
    [999_600_000, "1.00B"],
    [33030144, "33.0M"],
    [12_345, "12.3K"],
    [950, "950"],
    [0, "0"],
  ])("%d -> %s", (n, text) => {
    expect(formatParams(n)).toBe(text);
  });
});
