import { createHash } from "node:crypto";
import { and, asc, eq, ne, sql } from "drizzle-orm";
import { badges, repos } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";

type Badge = typeof badges.$inferSelect;
type BadgeJson = Record<string, unknown>;

/** JSON with object keys sorted, so equal badges give equal etags whatever the key order. */
function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** Strong HTTP ETag (quoted) of a badge's JSON. */
function badgeEtag(json: BadgeJson): string {
  return `"${createHash("sha256").update(stableStringify(json)).digest("hex").slice(0, 32)}"`;
}

/**
 * Stores the badge for (repoId, metric). The etag and updatedAt only move when the JSON changes;
 * `changed` says whether it did.
 */
export async function upsertBadge(
  ex: Executor,
  repoId: number,
  metric: string,
  json: BadgeJson,
  at: Date = new Date(),
): Promise<{ badge: Badge; changed: boolean }> {
  const etag = badgeEtag(json);
  const [row] = await ex
    .insert(badges)
    .values({ repoId, metric, json, etag, updatedAt: at })
    .onConflictDoUpdate({
      target: [badges.repoId, badges.metric],
      set: { json: sql`excluded.json`, etag: sql`excluded.etag`, updatedAt: sql`excluded.updated_at` },
      setWhere: ne(badges.etag, sql`excluded.etag`),
    })
    .returning();
  if (row) return { badge: row, changed: true };
  const unchanged = await getBadge(ex, repoId, metric);
  return { badge: unchanged!, changed: false };
}

/**
 * Stores a repo's badges (metric -> JSON) in one statement, with no read-back. As in upsertBadge, a
 * badge's etag and updatedAt move only when its JSON changes.
 */
export async function upsertBadges(
  ex: Executor,
  repoId: number,
  byMetric: Record<string, BadgeJson>,
  at: Date = new Date(),
): Promise<void> {
  const rows = Object.entries(byMetric).map(([metric, json]) => {
    return { repoId, metric, json, etag: badgeEtag(json), updatedAt: at };
  });
  if (rows.length === 0) return;
  await ex
    .insert(badges)
    .values(rows)
    .onConflictDoUpdate({
      target: [badges.repoId, badges.metric],
      set: { json: sql`excluded.json`, etag: sql`excluded.etag`, updatedAt: sql`excluded.updated_at` },
      setWhere: ne(badges.etag, sql`excluded.etag`),
    });
}

export async function getBadge(ex: Executor, repoId: number, metric: string): Promise<Badge | null> {
  const [row] = await ex
    .select()
    .from(badges)
    .where(and(eq(badges.repoId, repoId), eq(badges.metric, metric)));
  return row ?? null;
}

export function listBadges(ex: Executor, repoId: number): Promise<Badge[]> {
  return ex.select().from(badges).where(eq(badges.repoId, repoId)).orderBy(asc(badges.metric));
}

/**
 * One round trip: whether the repo is watched (and its status, whether any badge is stored), and its
 * badge for `metric` if stored.
 */
export async function findBadgeByRepoName(db: Executor, name: string, metric: string) {
  const rows = await db
    .select({
      repoId: repos.id,
      status: repos.status,
      hasBadges: sql<boolean>`exists (select 1 from ${badges} b where b.repo_id = ${repos.id})`,
      json: badges.json,
      etag: badges.etag,
      updatedAt: badges.updatedAt,
    })
    .from(repos)
    .leftJoin(badges, and(eq(badges.repoId, repos.id), eq(badges.metric, metric)))
    .where(eq(repos.name, name))
    .limit(1);
  return rows[0] ?? null;
}
