/**
 * The one safetensors header parser: an 8-byte little-endian length, then a JSON object of tensors
 * (`{dtype, shape, data_offsets}`) and an optional `__metadata__` of strings. Used by the Hub client (header
 * by range), `hubwatch estimate` on a folder, and the replay hub. Pure: bytes in, tensors out, or a
 * SafetensorsHeaderError saying what is wrong (callers turn it into their own error kind).
 */
import { z } from "zod";

export class SafetensorsHeaderError extends Error {
  override name = "SafetensorsHeaderError";
}

export type SafetensorsTensor = { name: string; dtype: string; shape: number[] };
type ParsedSafetensorsHeader = {
  tensors: SafetensorsTensor[];
  metadata: Record<string, string> | null;
};

/** Largest header accepted by default: the safetensors format's own limit (`MAX_HEADER_SIZE`); huggingface_hub stops at 25 MB. */
export const MAX_SAFETENSORS_HEADER_BYTES = 100_000_000;

const TensorSchema = z.object({
  dtype: z.string().min(1),
  shape: z.array(
    z
      .number()
      .int()
      .nonnegative()
      .max(2 ** 32),
  ),
  data_offsets: z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]).optional(),
});
const MetadataSchema = z.record(z.string(), z.string());

/** The JSON header's length from the file's first 8 bytes; 0, over `max` or too short -> error. */
export function safetensorsHeaderLength(first: Uint8Array, max = MAX_SAFETENSORS_HEADER_BYTES): number {
  if (first.byteLength < 8) throw new SafetensorsHeaderError("file shorter than 8 bytes");
  const n = new DataView(first.buffer, first.byteOffset, 8).getBigUint64(0, true);
  if (n === 0n) throw new SafetensorsHeaderError("header length is 0");
  if (n > BigInt(max)) throw new SafetensorsHeaderError(`header length ${n} over the ${max}-byte limit`);
  return Number(n);
}

function decodeJson(json: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(json));
  } catch {
    throw new SafetensorsHeaderError("header is not JSON");
  }
}

/** Tensors and metadata of a header's JSON bytes (see readSafetensorsHeaderObject). */
export function parseSafetensorsHeader(
  json: Uint8Array,
  o: { dataBytes?: number | null } = {},
): ParsedSafetensorsHeader {
  return readSafetensorsHeaderObject(decodeJson(json), o);
}

/**
 * Tensors and metadata of a parsed header object (also what a saved `*.safetensors.header.json` holds).
 * `dataBytes`, when known, is the size of the data section: data_offsets running past it are an error.
 */
export function readSafetensorsHeaderObject(
  header: unknown,
  o: { dataBytes?: number | null } = {},
): ParsedSafetensorsHeader {
  if (!header || typeof header !== "object" || Array.isArray(header))
    throw new SafetensorsHeaderError("header is not a JSON object");
  const tensors: SafetensorsTensor[] = [];
  let metadata: Record<string, string> | null = null;
  for (const [name, value] of Object.entries(header)) {
    if (name === "__metadata__") {
      const m = MetadataSchema.safeParse(value);
      if (!m.success) throw new SafetensorsHeaderError("__metadata__ is not a map of strings");
      metadata = m.data;
      continue;
    }
    const t = TensorSchema.safeParse(value);
    if (!t.success) throw new SafetensorsHeaderError(`tensor ${name} lacks a dtype or an integer shape`);
    const offsets = t.data.data_offsets;
    if (offsets && (offsets[0] > offsets[1] || (o.dataBytes != null && offsets[1] > o.dataBytes)))
      throw new SafetensorsHeaderError(`tensor ${name} has bad data_offsets`);
    tensors.push({ name, dtype: t.data.dtype, shape: t.data.shape });
  }
  return { tensors, metadata };
}

/** A whole header (length prefix and JSON) from a file's leading bytes. */
export function parseSafetensorsPrefix(prefix: Uint8Array, max?: number): ParsedSafetensorsHeader {
  const len = safetensorsHeaderLength(prefix, max);
  if (prefix.byteLength < 8 + len) throw new SafetensorsHeaderError("truncated header");
  return parseSafetensorsHeader(prefix.subarray(8, 8 + len));
}
