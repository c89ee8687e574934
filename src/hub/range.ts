import { HubBadDataError } from "./errors.ts";
import { type HubOptions, hubFetch, resolveUrl } from "./fetch.ts";

type RangeRead = { bytes: Uint8Array; fileSize: number | null };

/** Reads at most `n` bytes of a body, then cancels it (a server ignoring Range must not cost the file). */
async function readUpTo(res: Response, n: number): Promise<Uint8Array> {
  const out = new Uint8Array(n);
  let got = 0;
  const reader = res.body?.getReader();
  if (!reader) return out.subarray(0, 0);
  while (got < n) {
    const { done, value } = await reader.read();
    if (done) break;
    const take = Math.min(value.byteLength, n - got);
    out.set(value.subarray(0, take), got);
    got += take;
  }
  await reader.cancel().catch(() => {});
  return out.subarray(0, got);
}

function totalFromContentRange(header: string | null): number | null {
  const m = /\/(\d+)\s*$/.exec(header ?? "");
  return m ? Number(m[1]) : null;
}

/** GET bytes [start, start+length) of a file with a Range request; fewer bytes back means truncated data. */
export async function readRange(
  opts: HubOptions & { repo: string; sha: string; path: string },
  start: number,
  length: number,
): Promise<RangeRead> {
  const url = resolveUrl(opts, opts.repo, opts.sha, opts.path);
  const headers: Record<string, string> = { Range: `bytes=${start}-${start + length - 1}` };
  if (opts.accessToken) headers.Authorization = `Bearer ${opts.accessToken}`;
  const res = await hubFetch(opts)(url, { headers });
  let fileSize = totalFromContentRange(res.headers.get("content-range"));
  if (res.status === 200) {
    // Range ignored: the body is the whole file from byte 0.
    fileSize = Number(res.headers.get("content-length")) || null;
    const all = await readUpTo(res, start + length);
    return { bytes: all.subarray(start), fileSize };
  }
  if (res.status !== 206)
    throw new HubBadDataError(`Unexpected status ${res.status} for a range read of ${url}`);
  return { bytes: await readUpTo(res, length), fileSize };
}
