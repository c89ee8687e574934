import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { type Ctx, sendError } from "./http-util.ts";
import type { Commit, FileEntry, Parsed } from "./types.ts";

/**
 * The replay hub's "CDN": a second origin (its own port) serving LFS bytes behind signed URLs, as the
 * real Hub's `/resolve/` answers 302 to a signed CDN (or S3) URL for LFS and Xet files. Range is honoured
 * there; Authorization is not needed (a cross-origin redirect drops it, as fetch does).
 */
export function cdnSigner(ttlS = 3600) {
  const secret = randomBytes(32);
  const sign = (path: string, expires: number) =>
    createHmac("sha256", secret).update(`${path}\n${expires}`).digest("hex");
  return {
    /** Path and query of a signed URL for one file at one commit. */
    signedPath(repo: string, sha: string, path: string, now = Date.now()): string {
      const p = `/repos/${repo}/${sha}/${path.split("/").map(encodeURIComponent).join("/")}`;
      const expires = Math.floor(now / 1000) + ttlS;
      return `${p}?Expires=${expires}&Signature=${sign(p, expires)}`;
    },
    /** True when the URL's signature matches its path and has not expired. */
    verify(url: URL, now = Date.now()): boolean {
      const expires = Number(url.searchParams.get("Expires"));
      const given = Buffer.from(url.searchParams.get("Signature") ?? "", "hex");
      const want = Buffer.from(sign(url.pathname, expires), "hex");
      return expires * 1000 > now && given.length === want.length && timingSafeEqual(given, want);
    },
  };
}

export type CdnSigner = ReturnType<typeof cdnSigner>;

const CDN_PATH = /^\/repos\/([^/]+)\/([^/]+)\/([0-9a-f]{40})\/(.+)$/;

/** `/repos/OWNER/NAME/SHA/PATH` on the CDN origin. */
export function parseCdnRoute(pathname: string): Parsed {
  const m = CDN_PATH.exec(pathname);
  if (!m) return { route: "cdn" };
  const rest = m[4]!.split("/").map(decodeURIComponent).join("/");
  return { route: "cdn", repo: `${m[1]}/${m[2]}`, rev: m[3], rest };
}

/** 302 from `/resolve/` to the CDN, with the headers the Hub puts on that redirect. */
export function redirectToCdn(
  ctx: Ctx,
  cdn: { origin: string; signer: CdnSigner },
  repo: string,
  commit: Commit,
  e: FileEntry,
): void {
  const location = `${cdn.origin}${cdn.signer.signedPath(repo, commit.sha, e.path)}`;
  ctx.res.writeHead(302, {
    Location: location,
    "Cache-Control": "no-store",
    "X-Repo-Commit": commit.sha,
    "X-Linked-Size": String(e.size),
    "X-Linked-Etag": `"${e.lfs?.oid ?? e.oid}"`,
    "Content-Length": "0",
  });
  ctx.res.end();
}

/** A CDN request with a bad or expired signature: 403, as S3/CloudFront answer it (no X-Error-Code). */
export function refuseUnsigned(ctx: Ctx): void {
  sendError(ctx, 403, null, "Request has expired or its signature does not match");
}
