import { HubBadDataError } from "./errors.ts";
import { type HubOptions, withRetry } from "./fetch.ts";
import { readRange } from "./range.ts";
import { parseUpstream, SafetensorsMetadataSchema, TensorInfoSchema } from "./schema.ts";

export type TensorInfo = { name: string; dtype: string; shape: number[] };

/** The safetensors format's own header limit (`MAX_HEADER_SIZE`); huggingface_hub stops at 25 MB. */
export const DEFAULT_MAX_HEADER_BYTES = 100_000_000;

export type SafetensorsHeader = {
  path: string;
  tensors: TensorInfo[];
  metadata: Record<string, string> | null;
  /** 8 + the JSON header length: the only bytes read. */
  headerBytes: number;
  /** Whole file size from Content-Range, when the server said. */
  fileSize: number | null;
};

export type ReadHeaderArgs = HubOptions & {
  repo: string;
  sha: string;
  path: string;
};

function bad(args: ReadHeaderArgs, why: string): HubBadDataError {
  return new HubBadDataError(`Bad safetensors header in ${args.repo}@${args.sha}/${args.path}: ${why}`, {
    code: "BadSafetensorsHeader",
  });
}

function parseHeaderJson(args: ReadHeaderArgs, bytes: Uint8Array, dataBytes: number | null) {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw bad(args, "not JSON");
  }
  if (!json || typeof json !== "object" || Array.isArray(json)) throw bad(args, "not a JSON object");
  const tensors: TensorInfo[] = [];
  let metadata: Record<string, string> | null = null;
  for (const [name, value] of Object.entries(json)) {
    if (name === "__metadata__") {
      metadata = parseUpstream(SafetensorsMetadataSchema, value, `__metadata__ of ${args.path}`);
      continue;
    }
    const t = parseUpstream(TensorInfoSchema, value, `tensor ${name} of ${args.path}`);
    const [begin, end] = t.data_offsets;
    if (begin > end || (dataBytes !== null && end > dataBytes))
      throw bad(args, `tensor ${name} has bad data_offsets`);
    tensors.push({ name, dtype: t.dtype, shape: t.shape });
  }
  return { tensors, metadata };
}

/**
 * A safetensors header by two Range requests (8-byte length, then the JSON), never the body.
 * Length 0, over `maxHeaderBytes`, past the end of the file, truncated or non-JSON -> HubBadDataError.
 */
export async function readSafetensorsHeader(args: ReadHeaderArgs): Promise<SafetensorsHeader> {
  const max = args.maxHeaderBytes ?? DEFAULT_MAX_HEADER_BYTES;
  return withRetry(args, async () => {
    const first = await readRange(args, 0, 8);
    if (first.bytes.byteLength < 8) throw bad(args, "file shorter than 8 bytes");
    const n = new DataView(first.bytes.buffer, first.bytes.byteOffset, 8).getBigUint64(0, true);
    if (n === 0n) throw bad(args, "header length is 0");
    if (n > BigInt(max)) throw bad(args, `header length ${n} over the ${max}-byte limit`);
    const len = Number(n);
    if (first.fileSize !== null && 8 + len > first.fileSize)
      throw bad(args, "header runs past the end of the file");
    const second = await readRange(args, 8, len);
    if (second.bytes.byteLength < len)
      throw bad(args, `truncated: ${second.bytes.byteLength} of ${len} header bytes`);
    const fileSize = second.fileSize ?? first.fileSize;
    const { tensors, metadata } = parseHeaderJson(
      args,
      second.bytes,
      fileSize === null ? null : fileSize - 8 - len,
    );
    return { path: args.path, tensors, metadata, headerBytes: 8 + len, fileSize };
  });
}
