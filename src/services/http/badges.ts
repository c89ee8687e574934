import { type EndpointBadge, notWatchedBadge, renderBadgeSvg } from "../../core/badge/index.ts";
import type { Db } from "../../db/types.ts";
import { findBadgeByRepoName } from "../../repositories/http-read.repository.ts";

export type ServedBadge = { json: EndpointBadge; etag: string | null; updatedAt: Date | null };

/**
 * The badge for a repo and metric: the stored endpoint JSON, or a grey one when the repo is not
 * watched or the metric has no value yet (shields shows whatever 200 JSON it gets; a 404 would be an error badge).
 */
export async function loadBadge(db: Db, repoName: string, metric: string): Promise<ServedBadge> {
  const row = await findBadgeByRepoName(db, repoName, metric);
  if (!row) return { json: notWatchedBadge(metric), etag: null, updatedAt: null };
  if (!row.json || !row.etag || !row.updatedAt)
    return { json: { ...notWatchedBadge(metric), message: "no data yet" }, etag: null, updatedAt: null };
  return { json: row.json as EndpointBadge, etag: row.etag, updatedAt: row.updatedAt };
}

export function badgeSvg(badge: EndpointBadge): string {
  return renderBadgeSvg(badge);
}
