import { formatParams } from "../core/badge/format.ts";
import type { Estimate } from "../core/estimator/estimate.ts";

/** A shields.io endpoint badge (https://shields.io/badges/endpoint-badge); unknown keys are rejected there. */
export type EndpointBadge = {
  schemaVersion: 1;
  label: string;
  message: string;
  color: string;
  cacheSeconds: number;
};

const CACHE_SECONDS = 3600;
const VERDICT_COLORS: Record<string, string> = {
  fits: "brightgreen",
  borderline: "yellow",
  cards: "orange",
  does_not_fit: "red",
};

/**
 * The badges of one repo, by metric: "params", "tied-embedding", "advisories" and "fit-<mode>-<card>".
 * Interim builder until the core badge builder (helper C, src/core/badge) lands; same endpoint format.
 */
export function buildRepoBadges(
  estimate: Estimate | null,
  openAdvisories: number,
): Record<string, EndpointBadge> {
  const badge = (label: string, message: string, color: string): EndpointBadge => ({
    schemaVersion: 1,
    label,
    message,
    color,
    cacheSeconds: CACHE_SECONDS,
  });
  const out: Record<string, EndpointBadge> = {
    advisories: badge("advisories", String(openAdvisories), openAdvisories === 0 ? "brightgreen" : "red"),
  };
  if (!estimate) return out;
  out.params = badge("parameters", formatParams(estimate.params.total), "blue");
  const twice = estimate.checkpoint?.tied_embedding_stored_twice;
  if (estimate.params.tied_embedding) {
    out["tied-embedding"] = badge(
      "tied embedding",
      twice ? "stored twice" : "stored once",
      twice ? "orange" : "brightgreen",
    );
  }
  for (const cell of estimate.fit) {
    const metric = `fit-${cell.mode}-${slug(cell.card)}`;
    out[metric] = badge(
      `${cell.mode} on ${cell.card}`,
      verdictText(cell),
      VERDICT_COLORS[cell.verdict] ?? "lightgrey",
    );
  }
  return out;
}

function verdictText(cell: Estimate["fit"][number]): string {
  if (cell.verdict === "cards") return `${cell.split?.length ?? 2} cards`;
  return cell.verdict.replaceAll("_", " ");
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}
