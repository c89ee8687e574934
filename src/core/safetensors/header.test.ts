import { describe, expect, it } from "vitest";
import {
  parseSafetensorsHeader,
  parseSafetensorsPrefix,
  SafetensorsHeaderError,
  safetensorsHeaderLength,
} from "./header.ts";

const enc = (v: unknown) => new TextEncoder().encode(typeof v === "string" ? v : JSON.stringify(v));

function file(header: unknown): Uint8Array {
  const json = enc(header);
  const out = new Uint8Array(8 + json.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
  out.set(json, 8);
  return out;
}

describe("safetensors header", () => {
  it("reads tensors in order and the metadata, skipping nothing else", () => {
    const h = {
      __metadata__: { format: "pt" },
      "a.weight": { dtype: "BF16", shape: [4, 2], data_offsets: [0, 16] },
      "b.bias": { dtype: "F32", shape: [3], data_offsets: [16, 28] },
    };
    expect(parseSafetensorsPrefix(file(h))).toEqual({
      metadata: { format: "pt" },
      tensors: [
        { name: "a.weight", dtype: "BF16", shape: [4, 2] },
        { name: "b.bias", dtype: "F32", shape: [3] },
      ],
    });
  });

  it("refuses what is not a header, saying why", () => {
    const err = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(SafetensorsHeaderError);
        return (e as Error).message;
      }
      return "accepted";
    };
    expect(err(() => safetensorsHeaderLength(new Uint8Array(4)))).toBe("file shorter than 8 bytes");
    expect(err(() => safetensorsHeaderLength(new Uint8Array(8)))).toBe("header length is 0");
    expect(err(() => safetensorsHeaderLength(file({}).subarray(0, 8), 1))).toMatch(/over the 1-byte limit/);
    expect(err(() => parseSafetensorsPrefix(file({ x: 1 }).subarray(0, 10)))).toBe("truncated header");
    expect(err(() => parseSafetensorsHeader(enc("{not json")))).toBe("header is not JSON");
    expect(err(() => parseSafetensorsHeader(enc([1])))).toBe("header is not a JSON object");
    expect(err(() => parseSafetensorsHeader(enc({ t: { dtype: "F16", shape: [-1] } })))).toMatch(
      /tensor t lacks/,
    );
    expect(err(() => parseSafetensorsHeader(enc({ __metadata__: { n: 1 } })))).toMatch(/__metadata__/);
    const past = { t: { dtype: "F16", shape: [2], data_offsets: [0, 4] } };
    expect(err(() => parseSafetensorsHeader(enc(past), { dataBytes: 3 }))).toBe(
      "tensor t has bad data_offsets",
    );
    expect(parseSafetensorsHeader(enc(past), { dataBytes: 4 }).tensors).toHaveLength(1);
  });
});
