import {
  MAX_SAFETENSORS_HEADER_BYTES,
  parseSafetensorsHeader,
  SafetensorsHeaderError,
  safetensorsHeaderLength,
} from "../core/safetensors/header.ts";
import { HubBadDataError } from "./errors.ts";
import { type HubOptions, withRetry } from "./fetch.ts";
import { readRange } from "./range.ts";

export type TensorInfo = { name: string; dtype: string; shape: number[] };

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

/** Parses with the shared parser; a malformed header becomes HubBadDataError (a recorded finding, no retry). */
function parsed<T>(args: ReadHeaderArgs, parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (err instanceof SafetensorsHeaderError) throw bad(args, err.message);
    throw err;
  }
}

/**
 * A safetensors header by two Range requests (8-byte length, then the JSON), never the body.
 * Length 0, over `maxHeaderBytes`, past the end of the file, truncated or non-JSON -> HubBadDataError.
 */
export async function readSafetensorsHeader(args: ReadHeaderArgs): Promise<SafetensorsHeader> {
  const max = args.maxHeaderBytes ?? MAX_SAFETENSORS_HEADER_BYTES;
  return withRetry(args, async () => {
    const first = await readRange(args, 0, 8);
    const len = parsed(args, () => safetensorsHeaderLength(first.bytes, max));
    if (first.fileSize !== null && 8 + len > first.fileSize)
      throw bad(args, "header runs past the end of the file");
    const second = await readRange(args, 8, len);
    if (second.bytes.byteLength < len)
      throw bad(args, `truncated: ${second.bytes.byteLength} of ${len} header bytes`);
    const fileSize = second.fileSize ?? first.fileSize;
    const dataBytes = fileSize === null ? null : fileSize - 8 - len;
    const { tensors, metadata } = parsed(args, () => parseSafetensorsHeader(second.bytes, { dataBytes }));
    return { path: args.path, tensors, metadata, headerBytes: 8 + len, fileSize };
  });
}
