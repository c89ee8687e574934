import {
  type BadgeOverrides,
  type EndpointBadge,
  missingBadge,
  notWatchedBadge,
  renderBadgeSvg,
} from "../../core/badge/index.ts";
import type { Db } from "../../db/types.ts";
import { findBadgeByRepoName } from "../../repositories/badges.repository.ts";

type ServedBadge = {
  json: EndpointBadge;
  etag: string | null;
  updatedAt: Date | null;
  /** Filled in on first use and kept with the cached badge: the SVG, the JSON body and its ETag. */
  svg?: string;
  jsonBody?: string;
  jsonEtag?: string;
};

/**
 * The badge for a repo and metric: the stored endpoint JSON, or one saying why there is none (not
 * watched, unknown metric, gated, not found, no data yet). Always 200: shields shows whatever 200 JSON
 * it gets, and a 404 would be its generic error badge.
 */
export async function loadBadge(db: Db, repoName: string, metric: string): Promise<ServedBadge> {
  const row = await findBadgeByRepoName(db, repoName, metric);
  if (!row) return { json: notWatchedBadge(metric), etag: null, updatedAt: null };
  if (!row.json || !row.etag || !row.updatedAt)
    return {
      json: missingBadge(metric, { status: row.status, hasBadges: Boolean(row.hasBadges) }),
      etag: null,
      updatedAt: null,
    };
  return { json: row.json as EndpointBadge, etag: row.etag, updatedAt: row.updatedAt };
}

/** The SVG of a served badge, rendered once per cached entry (with overrides: every time). */
export function badgeSvg(badge: ServedBadge, overrides: BadgeOverrides = {}): string {
  if (Object.keys(overrides).length > 0) return renderBadgeSvg(badge.json, overrides);
  badge.svg ??= renderBadgeSvg(badge.json);
  return badge.svg;
}
