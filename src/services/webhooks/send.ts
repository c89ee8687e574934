import http from "node:http";
import https from "node:https";
import { assertPublicHost, BlockedAddressError, guardedLookup } from "../../lib/ssrf.ts";

type SendOptions = {
  url: string;
  headers: Record<string, string>;
  body: string;
  allowPrivateTargets: boolean;
  timeoutMs?: number;
  maxResponseBytes?: number;
};

/** What one POST did; `status` is null when no response came (refused, timeout, network). */
type SendResult = {
  status: number | null;
  responseBody: string;
  durationMs: number;
  error: string | null;
  blocked: boolean;
  /** Seconds from a `Retry-After` header (429/503), when the receiver sent one. */
  retryAfterS?: number;
};

/**
 * POSTs once: no redirects followed (3xx is a failure), `timeoutMs` for the whole exchange,
 * response body read up to `maxResponseBytes`. Private targets are refused both before
 * (every resolved address) and at connect time (guarded lookup) unless allowed.
 */
export async function sendWebhook(opts: SendOptions): Promise<SendResult> {
  const started = Date.now();
  const done = (r: Omit<SendResult, "durationMs">): SendResult => ({
    ...r,
    durationMs: Date.now() - started,
  });
  let url: URL;
  try {
    url = new URL(opts.url);
    if (url.protocol !== "http:" && url.protocol !== "https:")
      throw new Error(`unsupported scheme ${url.protocol}`);
    if (!opts.allowPrivateTargets) await assertPublicHost(url.hostname);
  } catch (err) {
    return done({
      status: null,
      responseBody: "",
      error: String((err as Error).message),
      blocked: isBlocked(err),
    });
  }
  return new Promise((resolve) => {
    const lib = url.protocol === "https:" ? https : http;
    const req = lib.request(url, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "hubwatch-webhooks", ...opts.headers },
      lookup: guardedLookup(opts.allowPrivateTargets),
      timeout: opts.timeoutMs ?? 10_000,
    });
    const timer = setTimeout(() => req.destroy(new Error("timeout")), opts.timeoutMs ?? 10_000);
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", (err) => {
      clearTimeout(timer);
      resolve(done({ status: null, responseBody: "", error: err.message, blocked: isBlocked(err) }));
    });
    req.on("response", (res) => {
      const cap = opts.maxResponseBytes ?? 4096;
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () => {
        clearTimeout(timer);
        const responseBody = Buffer.concat(chunks).subarray(0, cap).toString("utf8");
        const retryAfterS = Number(res.headers["retry-after"]);
        const base = { status: res.statusCode ?? null, responseBody, error: null, blocked: false };
        resolve(done(Number.isFinite(retryAfterS) && retryAfterS > 0 ? { ...base, retryAfterS } : base));
      };
      res.on("data", (c: Buffer) => {
        chunks.push(c);
        size += c.length;
        if (size >= cap) {
          res.destroy();
          finish();
        }
      });
      res.on("end", finish);
      res.on("error", finish);
    });
    req.end(opts.body);
  });
}

function isBlocked(err: unknown): boolean {
  return err instanceof BlockedAddressError || (err as Error)?.name === "BlockedAddressError";
}
