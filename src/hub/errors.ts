/**
 * Classified Hub failures. Each says what the caller should do: `retryable` (and, for 429, `retryAfterMs`).
 * Callers match on `name` (see src/services/hub-errors.ts), so every class sets it explicitly.
 */
type HubErrorDetails = { status?: number; url?: string; code?: string; cause?: unknown };

export class HubError extends Error {
  override name = "HubError";
  readonly retryable: boolean = false;
  readonly retryAfterMs?: number;
  readonly status?: number;
  readonly url?: string;
  /** The Hub's X-Error-Code (RepoNotFound, RevisionNotFound, EntryNotFound, GatedRepo) or our own reason. */
  readonly code?: string;
  constructor(message: string, details: HubErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.status = details.status;
    this.url = details.url;
    this.code = details.code;
  }
}

/** 404: repo, revision or file does not exist. Not retryable; record it. */
export class HubNotFoundError extends HubError {
  override name = "HubNotFoundError";
  /** Which thing is missing, from X-Error-Code. */
  get what(): "repo" | "revision" | "entry" | "unknown" {
    if (this.code === "RepoNotFound") return "repo";
    if (this.code === "RevisionNotFound") return "revision";
    if (this.code === "EntryNotFound") return "entry";
    return "unknown";
  }
}

/** 401/403 from the Hub itself: gated (X-Error-Code GatedRepo) or private repo, or a bad token.
 * Not retryable; record it. (401/403 with RepoNotFound is a HubNotFoundError; from the CDN, HubUnavailableError.) */
export class HubAccessError extends HubError {
  override name = "HubAccessError";
  get gated(): boolean {
    return this.code === "GatedRepo";
  }
}

/** 429. Retryable after `retryAfterMs`; surfaced to the queue's rate limiter, never retried in the client. */
export class HubRateLimitedError extends HubError {
  override name = "HubRateLimitedError";
  override readonly retryable = true;
  override readonly retryAfterMs?: number;
  constructor(message: string, retryAfterMs: number | undefined, details: HubErrorDetails = {}) {
    super(message, details);
    this.retryAfterMs = retryAfterMs;
  }
}

/** 5xx, timeouts, connection resets. Retryable (the client already tried a few times). */
export class HubUnavailableError extends HubError {
  override name = "HubUnavailableError";
  override readonly retryable = true;
}

/** Malformed upstream data (bad JSON, bad safetensors header, file too large). Not retryable; a finding. */
export class HubBadDataError extends HubError {
  override name = "HubBadDataError";
}

/**
 * Milliseconds to wait, from `Retry-After` (delta seconds or HTTP date) or else the IETF
 * `RateLimit: "api";r=0;t=<seconds>` header the Hub sends. Undefined when neither parses.
 */
export function parseRetryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const retryAfter = headers.get("retry-after")?.trim();
  if (retryAfter) {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return Math.round(Number(retryAfter) * 1000);
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return Math.max(0, at - now);
  }
  const t = /(?:^|[;,\s])t=(\d+)/.exec(headers.get("ratelimit") ?? "");
  return t ? Number(t[1]) * 1000 : undefined;
}

/** X-Error-Code values that mean "does not exist", whatever the status (the Hub answers an anonymous
 * request for a missing repo with 401 RepoNotFound, as it does for a private one). */
const NOT_FOUND_CODES = new Set(["RepoNotFound", "RevisionNotFound", "EntryNotFound"]);

/**
 * Maps a non-2xx response to its error class (the body is not read). `fromCdn`: the answer came from
 * another origin after a redirect (the CDN serving LFS bytes): a 401/403 there is an expired or refused
 * signed URL, never a gated repo, so it is retryable like a 5xx.
 */
export function errorFromResponse(res: Response, url: string, fromCdn = false): HubError {
  const code = res.headers.get("x-error-code") ?? undefined;
  const message = res.headers.get("x-error-message") ?? `${res.status} ${res.statusText}`.trim();
  const details = { status: res.status, url, code };
  const text = `Hub ${res.status} for ${url}: ${message}`;
  if (res.status === 429) return new HubRateLimitedError(text, parseRetryAfterMs(res.headers), details);
  if (fromCdn && (res.status === 401 || res.status === 403))
    return new HubUnavailableError(`CDN ${res.status} for ${url}: ${message}`, {
      ...details,
      code: "CdnRefused",
    });
  if (code && NOT_FOUND_CODES.has(code)) return new HubNotFoundError(text, details);
  if (res.status === 401 || res.status === 403) return new HubAccessError(text, details);
  if (res.status === 404 || res.status === 410) return new HubNotFoundError(text, details);
  if (res.status >= 500 || res.status === 408) return new HubUnavailableError(text, details);
  return new HubBadDataError(text, { ...details, code: code ?? "UnexpectedStatus" });
}

/** Maps anything thrown while talking to the Hub (network, abort, parse, library errors) to a HubError. */
export function toHubError(err: unknown, url?: string): HubError {
  if (err instanceof HubError) return err;
  const e = err as { name?: string; message?: string; statusCode?: number; cause?: unknown };
  const cause = e?.cause as HubError | undefined;
  if (cause instanceof HubError) return cause;
  const msg = e?.message ?? String(err);
  if (e?.name === "TimeoutError" || e?.name === "AbortError") {
    return new HubUnavailableError(`Hub request timed out: ${url ?? ""} ${msg}`.trim(), {
      url,
      cause: err,
      code: "Timeout",
    });
  }
  if (
    e?.name === "SafetensorParseError" ||
    e?.name === "InvalidApiResponseFormatError" ||
    err instanceof SyntaxError
  ) {
    return new HubBadDataError(`Malformed Hub data: ${msg}`, { url, cause: err });
  }
  if (typeof e?.statusCode === "number") {
    const res = new Response(null, { status: e.statusCode });
    return errorFromResponse(res, url ?? "");
  }
  // fetch failed / terminated / ECONNRESET: the connection broke.
  return new HubUnavailableError(`Hub connection failed: ${msg}`, {
    url,
    cause: err,
    code: "ConnectionError",
  });
}
