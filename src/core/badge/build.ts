import { formatParams } from "./format.ts";
import type { EndpointBadge } from "./types.ts";

/** A fit cell as badges read it (the estimator's FitRow fields). */
type BadgeFitRow = {
  card: string;
  mode: string;
  verdict: string;
  batch: number;
  split?: number[] | null;
  text?: string;
};

type BadgeInput = {
  params_total?: number | null;
  /** Parameters used per token (MoE: routed top-k + shared parts; dense: the total). */
  params_active?: number | null;
  fit?: BadgeFitRow[];
  tied_embedding_stored_twice?: boolean | null;
  open_advisories: number;
};

/** Shields' minimum effective cache time, in seconds. */
export const DEFAULT_CACHE_SECONDS = 300;

const GREY = "lightgrey";

const TIED: Record<string, [string, string]> = {
  true: ["stored twice", "orange"],
  false: ["stored once", "brightgreen"],
};

const VERDICT_COLORS: Record<string, string> = {
  fits: "brightgreen",
  borderline: "yellow",
  cards: "orange",
  does_not_fit: "red",
};

/** "A100 80 GB" -> "a100-80-gb": lowercase, runs of other characters become one dash. */
function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** The metric name of one fit cell: "fit-<mode>-<card-slug>", e.g. "fit-lora-a100-80-gb". */
export function fitMetric(card: string, mode: string): string {
  return `fit-${slug(mode)}-${slug(card)}`;
}

/**
 * Every badge of one repo's latest estimate, by metric: "params", "active-params", "tied-embedding",
 * "advisories", and "fit-<mode>-<card-slug>" per fit cell. Unknown values give a grey
 * "unknown" badge rather than a missing one.
 */
export function buildBadges(
  input: BadgeInput,
  cacheSeconds: number = DEFAULT_CACHE_SECONDS,
): Record<string, EndpointBadge> {
  const badge = (label: string, message: string, color: string): EndpointBadge => ({
    schemaVersion: 1,
    label,
    message: message || "unknown",
    color,
    cacheSeconds,
  });
  const out: Record<string, EndpointBadge> = {};
  const total = input.params_total;
  out.params = badge(
    "params",
    typeof total === "number" ? formatParams(total) : "unknown",
    total == null ? GREY : "blue",
  );
  const active = input.params_active;
  out["active-params"] = badge(
    "active params",
    typeof active === "number" ? formatParams(active) : "unknown",
    active == null ? GREY : "blue",
  );
  for (const row of input.fit ?? []) {
    const label = `${row.mode.replace(/_/g, " ")} on ${row.card}`;
    out[fitMetric(row.card, row.mode)] = badge(label, fitMessage(row), VERDICT_COLORS[row.verdict] ?? GREY);
  }
  const [tiedMessage, tiedColor] = TIED[String(input.tied_embedding_stored_twice ?? null)] ?? [
    "unknown",
    GREY,
  ];
  out["tied-embedding"] = badge("tied embedding", tiedMessage, tiedColor);
  const n = input.open_advisories;
  out.advisories =
    n > 0 ? badge("advisories", `${n} open`, "red") : badge("advisories", "none", "brightgreen");
  return out;
}

function fitMessage(row: BadgeFitRow): string {
  if (row.text) return row.text;
  if (row.verdict === "fits") return `batch ${row.batch}`;
  if (row.verdict === "cards") return `${row.split?.length ?? 2} cards`;
  return row.verdict.replace(/_/g, " ");
}

/** The grey badge served for a repo (or metric) we do not watch. */
export function notWatchedBadge(metric: string, cacheSeconds: number = DEFAULT_CACHE_SECONDS): EndpointBadge {
  return { schemaVersion: 1, label: metric, message: "not watched", color: "lightgrey", cacheSeconds };
}
