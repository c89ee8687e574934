import { DEFAULT_CACHE_SECONDS } from "./build.ts";
import type { EndpointBadge } from "./types.ts";

// The badge served when a repo has no stored value for a metric, saying why: the metric does not
// exist, the repo is gated or gone, or nothing has been computed yet.

const FIXED = new Set(["params", "active-params", "tied-embedding", "advisories"]);
const FIT = /^fit-(serve|lora|full-finetune)-[a-z0-9]+(-[a-z0-9]+)*$/;

/** Whether `metric` is a name buildBadges can produce (fixed names, or fit-<mode>-<card-slug>). */
export function isKnownMetric(metric: string): boolean {
  return FIXED.has(metric) || FIT.test(metric);
}

/** Repo status as stored (ok, gated, not_found, error), and whether any of its badges is computed. */
type RepoBadgeState = { status: string; hasBadges: boolean };

/** The grey or red badge for a metric with no stored value, by the reason there is none. */
export function missingBadge(
  metric: string,
  repo: RepoBadgeState,
  cacheSeconds: number = DEFAULT_CACHE_SECONDS,
): EndpointBadge {
  const badge = (message: string, color: string): EndpointBadge => ({
    schemaVersion: 1,
    label: metric,
    message,
    color,
    cacheSeconds,
  });
  // Once a repo's badges are computed, a metric missing among them is not one it has (a mistyped card).
  if (!isKnownMetric(metric) || repo.hasBadges) return badge("unknown metric", "red");
  if (repo.status === "gated") return badge("gated: needs HF_TOKEN", "orange");
  if (repo.status === "not_found") return badge("repo not found", "red");
  return badge("no data yet", "lightgrey");
}
