/**
 * A small GGUF v3 writer (little-endian), enough for the replay hub and tests: magic "GGUF", version 3,
 * tensor count and kv count (u64), the metadata key/values, the tensor infos (name, n_dims, dims with
 * dims[0] the row length, ggml type id, data offset), then zero padding to the alignment. Only the header
 * is built; the tensor data that follows is described by its size (served as zeros).
 * Spec: ggml docs/gguf.md.
 */
import { ggmlType, tensorBytes } from "../core/estimator/gguf/ggml-types.ts";

/** GGUF value type ids (ggml docs/gguf.md). */
const GGUF = {
  UINT8: 0,
  INT8: 1,
  UINT16: 2,
  INT16: 3,
  UINT32: 4,
  INT32: 5,
  FLOAT32: 6,
  BOOL: 7,
  STRING: 8,
  ARRAY: 9,
  UINT64: 10,
  INT64: 11,
  FLOAT64: 12,
} as const;

/** A value with its type; plain JS values are typed by `typed()`: string, bool, u32/i32, f32, arrays. */
export type GgufValue =
  | { type: number; value: number | bigint | boolean | string }
  | { type: typeof GGUF.ARRAY; of: number; values: (number | bigint | boolean | string)[] };
export type GgufKvInput = string | number | boolean | string[] | number[] | GgufValue;

export type GgufTensorSpec = { name: string; shape: number[]; type: number };

const GGUF_ALIGNMENT = 32;

/** A float32 value, for numbers that happen to be whole (rope.freq_base 500000.0). */
export function f32(value: number): GgufValue {
  return { type: GGUF.FLOAT32, value };
}

function typed(v: GgufKvInput): GgufValue {
  if (typeof v === "object" && !Array.isArray(v)) return v;
  if (typeof v === "string") return { type: GGUF.STRING, value: v };
  if (typeof v === "boolean") return { type: GGUF.BOOL, value: v };
  if (typeof v === "number")
    return { type: Number.isInteger(v) ? (v < 0 ? GGUF.INT32 : GGUF.UINT32) : GGUF.FLOAT32, value: v };
  const strings = v.length > 0 && typeof v[0] === "string";
  const ints = !strings && (v as number[]).every((x) => Number.isInteger(x));
  return { type: GGUF.ARRAY, of: strings ? GGUF.STRING : ints ? GGUF.INT32 : GGUF.FLOAT32, values: v };
}

class Out {
  parts: Buffer[] = [];
  length = 0;
  push(b: Buffer) {
    this.parts.push(b);
    this.length += b.length;
  }
  u32(n: number) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    this.push(b);
  }
  u64(n: number | bigint) {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(n));
    this.push(b);
  }
  str(s: string) {
    const b = Buffer.from(s, "utf8");
    this.u64(b.length);
    this.push(b);
  }
  scalar(type: number, v: number | bigint | boolean | string) {
    const b = Buffer.alloc(8);
    const n = Number(v);
    if (type === GGUF.STRING) return this.str(String(v));
    if (type === GGUF.UINT8 || type === GGUF.BOOL) return this.push(Buffer.from([n ? n & 0xff : 0]));
    if (type === GGUF.INT8) return this.push(Buffer.from([n & 0xff]));
    if (type === GGUF.UINT16 || type === GGUF.INT16) {
      b.writeUInt16LE(n & 0xffff);
      return this.push(b.subarray(0, 2));
    }
    if (type === GGUF.UINT32) b.writeUInt32LE(n);
    else if (type === GGUF.INT32) b.writeInt32LE(n);
    else if (type === GGUF.FLOAT32) b.writeFloatLE(n);
    else if (type === GGUF.UINT64) b.writeBigUInt64LE(BigInt(v as number));
    else if (type === GGUF.INT64) b.writeBigInt64LE(BigInt(v as number));
    else if (type === GGUF.FLOAT64) b.writeDoubleLE(n);
    else throw new Error(`GGUF value type ${type} not writable`);
    const size = type === GGUF.UINT32 || type === GGUF.INT32 || type === GGUF.FLOAT32 ? 4 : 8;
    this.push(b.subarray(0, size));
  }
}

const align = (n: number, a: number) => Math.ceil(n / a) * a;

export type EncodedGguf = { header: Buffer; dataBytes: number; size: number };

/** The header bytes (padded to the alignment) and the size of the tensor data that follows. */
export function encodeGguf(
  metadata: Record<string, GgufKvInput>,
  tensors: GgufTensorSpec[],
  alignment = GGUF_ALIGNMENT,
): EncodedGguf {
  const out = new Out();
  out.push(Buffer.from("GGUF", "ascii"));
  out.u32(3);
  out.u64(tensors.length);
  out.u64(Object.keys(metadata).length);
  for (const [key, raw] of Object.entries(metadata)) {
    const v = typed(raw);
    out.str(key);
    out.u32(v.type);
    if ("values" in v) {
      out.u32(v.of);
      out.u64(v.values.length);
      for (const x of v.values) out.scalar(v.of, x);
    } else out.scalar(v.type, v.value);
  }
  let offset = 0;
  for (const t of tensors) {
    const type = ggmlType(t.type);
    if (!type) throw new Error(`${t.name}: unknown ggml type ${t.type}`);
    const bytes = tensorBytes(type, t.shape);
    if (bytes === null) throw new Error(`${t.name}: row not a whole number of ${type.name} blocks`);
    out.str(t.name);
    out.u32(t.shape.length);
    for (const d of t.shape) out.u64(d);
    out.u32(t.type);
    out.u64(offset);
    offset = align(offset + bytes, alignment);
  }
  out.push(Buffer.alloc(align(out.length, alignment) - out.length));
  const header = Buffer.concat(out.parts);
  return { header, dataBytes: offset, size: header.length + offset };
}
