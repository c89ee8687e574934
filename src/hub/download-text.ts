import { downloadFile, fileDownloadInfo } from "@huggingface/hub";
import { HubBadDataError, HubNotFoundError } from "./errors.ts";
import { type HubOptions, hubFetch, resolveUrl, withRetry } from "./fetch.ts";

export type DownloadTextArgs = HubOptions & {
  repo: string;
  sha: string;
  path: string;
  /** Refuse (non-retryable HubBadDataError, code "TooLarge") files over this many bytes. */
  maxBytes: number;
  /** Size from the tree, when known: saves the 1-byte probe. */
  size?: number;
};

function tooLarge(args: DownloadTextArgs, size: number): HubBadDataError {
  return new HubBadDataError(
    `${args.repo}@${args.sha}/${args.path} is ${size} bytes, over the ${args.maxBytes} limit`,
    {
      code: "TooLarge",
    },
  );
}

/**
 * A text file's content at a revision, or null when the file does not exist (404 EntryNotFound).
 * The size is checked before the body is fetched (tree size, else a `Range: bytes=0-0` probe).
 * A missing repo or revision throws HubNotFoundError; invalid UTF-8 throws HubBadDataError.
 */
export async function downloadText(args: DownloadTextArgs): Promise<string | null> {
  if (args.size !== undefined && args.size > args.maxBytes) throw tooLarge(args, args.size);
  const common = {
    repo: args.repo,
    revision: args.sha,
    path: args.path,
    hubUrl: args.hubUrl,
    accessToken: args.accessToken,
  };
  try {
    return await withRetry(args, async () => {
      const fetch = hubFetch(args);
      const info =
        args.size !== undefined
          ? { size: args.size, etag: "", url: resolveUrl(args, args.repo, args.sha, args.path) }
          : await fileDownloadInfo({ ...common, fetch });
      if (!info) return null;
      if (info.size > args.maxBytes) throw tooLarge(args, info.size);
      const blob = await downloadFile({ ...common, fetch, downloadInfo: info, xet: false });
      if (!blob) return null;
      const bytes = new Uint8Array(await blob.arrayBuffer());
      if (bytes.byteLength > args.maxBytes) throw tooLarge(args, bytes.byteLength);
      try {
        return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      } catch {
        throw new HubBadDataError(`${args.repo}@${args.sha}/${args.path} is not valid UTF-8`, {
          code: "NotText",
        });
      }
    });
  } catch (err) {
    if (err instanceof HubNotFoundError && err.what === "entry") return null;
    throw err;
  }
}
