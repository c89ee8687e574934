import type { FaultRule, Route } from "./types.ts";

/** Fault rules consumed in order: the first rule matching a request fires and loses one of its `times`. */
export function faultStore() {
  let rules: FaultRule[] = [];
  return {
    add(rule: FaultRule): void {
      rules.push({ ...rule });
    },
    clear(): void {
      rules = [];
    },
    take(repo: string | undefined, route: Route, path: string): FaultRule | null {
      const rule = rules.find(
        (r) =>
          r.times > 0 &&
          (r.repo === undefined || r.repo === repo) &&
          (r.route === undefined || r.route === route) &&
          (r.pathIncludes === undefined || path.includes(r.pathIncludes)) &&
          (r.kind !== "safetensors" || path.split("?")[0]!.endsWith(".safetensors")),
      );
      if (!rule) return null;
      rule.times -= 1;
      return rule;
    },
  };
}

/** Headers of a Hub 429: Retry-After (seconds or HTTP date) plus the IETF RateLimit pair the Hub sends. */
export function rateLimitHeaders(rule: Extract<FaultRule, { kind: "rate-limit" }>): Record<string, string> {
  const retry = rule.retryAfterS ?? 1;
  const reset = rule.resetS ?? retry;
  const headers: Record<string, string> = {
    RateLimit: `"api";r=0;t=${reset}`,
    "RateLimit-Policy": `"fixed window";"api";q=500;w=300`,
  };
  if (rule.retryAfterS !== undefined || rule.resetS === undefined) {
    headers["Retry-After"] = rule.httpDate
      ? new Date(Date.now() + retry * 1000).toUTCString()
      : String(retry);
  }
  return headers;
}
