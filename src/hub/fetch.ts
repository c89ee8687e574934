import { bucketOfUrl, type HubBudget } from "./budget.ts";
import { errorFromResponse, type HubError, HubRateLimitedError, toHubError } from "./errors.ts";

/** Requests and bytes received, for "requests and bytes fetched" in reports. Mutated in place. */
export type RequestCounter = {
  requests: number;
  bytesReceived: number;
  retries: number;
  byStatus: Record<string, number>;
};

export function createRequestCounter(): RequestCounter {
  return { requests: 0, bytesReceived: 0, retries: 0, byStatus: {} };
}

/** Options every Hub client function takes (HF_ENDPOINT / HF_TOKEN are parsed elsewhere and passed in). */
export type HubOptions = {
  /** Default https://huggingface.co. */
  hubUrl?: string;
  fetch?: typeof fetch;
  accessToken?: string;
  /** Per-request timeout in ms, body included (default 30,000). */
  timeoutMs?: number;
  /** Attempts for 5xx/timeouts/resets inside the client (default 3); 429 is never retried here. */
  attempts?: number;
  /** First backoff in ms, doubled per attempt, with jitter (default 250). */
  retryBaseMs?: number;
  counter?: RequestCounter;
  /** Shared request budget: every request waits its turn and every answer's RateLimit headers are read. */
  budget?: HubBudget;
  /** Largest safetensors header read, in bytes (default 100,000,000, the format's own limit). */
  maxHeaderBytes?: number;
  /** Told of every answer (status 0: none came), e.g. for metrics. */
  onResponse?: (url: string, status: number, headers?: Headers) => void;
};

const DEFAULT_HUB_URL = "https://huggingface.co";

function countingBody(body: ReadableStream<Uint8Array>, counter: RequestCounter): ReadableStream<Uint8Array> {
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        counter.bytesReceived += chunk.byteLength;
        controller.enqueue(chunk);
      },
    }),
  );
}

/**
 * Wraps the injected fetch: the one path every Hub request takes. Waits for the shared budget, adds a
 * timeout, counts requests and body bytes, reads the RateLimit headers, and turns every non-2xx response
 * or network failure into a classified HubError (so @huggingface/hub only sees successes).
 */
export function hubFetch(opts: HubOptions): typeof fetch {
  const base = opts.fetch ?? fetch;
  const counter = opts.counter ?? createRequestCounter();
  const timeoutMs = opts.timeoutMs ?? 30_000;
  return async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const bucket = bucketOfUrl(url);
    // Waiting for the budget is not the request's time: the timeout starts once it may go out.
    await opts.budget?.acquire(bucket);
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    counter.requests += 1;
    let res: Response;
    try {
      res = await base(input, { ...init, signal });
    } catch (err) {
      opts.onResponse?.(url, 0);
      throw toHubError(err, url);
    }
    opts.budget?.observe(bucket, res.status, res.headers);
    opts.onResponse?.(url, res.status, res.headers);
    counter.byStatus[res.status] = (counter.byStatus[res.status] ?? 0) + 1;
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      throw errorFromResponse(res, res.url || url, fromOtherOrigin(res, opts));
    }
    const wrapped = new Response(res.body ? countingBody(res.body, counter) : null, {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
    Object.defineProperty(wrapped, "url", { value: res.url || url });
    return wrapped;
  };
}

/** True when redirects led the request off the Hub's origin (LFS bytes come from a CDN). */
function fromOtherOrigin(res: Response, opts: HubOptions): boolean {
  if (!res.redirected || !res.url) return false;
  return new URL(res.url).origin !== new URL(opts.hubUrl ?? DEFAULT_HUB_URL).origin;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs `op` up to `attempts` times while it fails with a retryable, non-429 error; any failure
 * comes out as a HubError (429 immediately, so the queue's rate limiter can honour Retry-After).
 */
export async function withRetry<T>(opts: HubOptions, op: () => Promise<T>): Promise<T> {
  const attempts = Math.max(1, opts.attempts ?? 3);
  const base = opts.retryBaseMs ?? 250;
  let last: HubError | undefined;
  for (let i = 0; i < attempts; i++) {
    try {
      return await op();
    } catch (err) {
      last = toHubError(err);
      if (!last.retryable || last instanceof HubRateLimitedError || i === attempts - 1) throw last;
      if (opts.counter) opts.counter.retries += 1;
      await sleep(base * 2 ** i * (0.5 + Math.random() / 2));
    }
  }
  throw last;
}

/** Resolve URL of a file at a revision (revision and path segments URL-encoded). */
export function resolveUrl(opts: HubOptions, repo: string, revision: string, path: string): string {
  const hub = (opts.hubUrl ?? DEFAULT_HUB_URL).replace(/\/+$/, "");
  return `${hub}/${repo}/resolve/${encodeURIComponent(revision)}/${path.split("/").map(encodeURIComponent).join("/")}`;
}
