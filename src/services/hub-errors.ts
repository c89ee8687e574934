/**
 * Reads the Hub client's error classes by name, so this layer needs no more than their contract:
 * HubNotFoundError (404), HubAccessError (401/403, gated or private), HubBadDataError (malformed upstream
 * data, not retryable), HubRateLimitedError (429, retryAfterMs) and HubUnavailableError (5xx, timeouts).
 */
type HubErrorKind = "not_found" | "access" | "bad_data" | "rate_limited" | "unavailable";

const BY_NAME: Record<string, HubErrorKind> = {
  HubNotFoundError: "not_found",
  HubAccessError: "access",
  HubBadDataError: "bad_data",
  HubRateLimitedError: "rate_limited",
  HubUnavailableError: "unavailable",
};

export function hubErrorKind(err: unknown): HubErrorKind | null {
  if (!err || typeof err !== "object") return null;
  const name = (err as { name?: unknown }).name;
  if (typeof name === "string" && name in BY_NAME) return BY_NAME[name] ?? null;
  return null;
}

/** An upstream file the pipeline could not make sense of: the revision fails with it, the repo goes on. */
export class BadUpstreamDataError extends Error {
  override name = "BadUpstreamDataError";
  readonly retryable = false;
  constructor(
    readonly kind:
      | "bad_config"
      | "bad_header"
      | "bad_tokenizer"
      | "bad_template"
      | "too_large"
      | "estimator_error",
    message: string,
  ) {
    super(message);
  }
}
