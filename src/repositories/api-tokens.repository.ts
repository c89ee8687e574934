import { createHash, randomBytes } from "node:crypto";
import { and, asc, eq, isNull } from "drizzle-orm";
import { apiTokens } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";

export type ApiToken = typeof apiTokens.$inferSelect;

/** sha256 hex of a token: the only form stored. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** A new random token to show the user once ('hw_' + 32 bytes base64url). */
export function generateApiToken(): string {
  return `hw_${randomBytes(32).toString("base64url")}`;
}

/** Stores a token by its hash under `name`. */
export async function createApiToken(ex: Executor, name: string, token: string): Promise<ApiToken> {
  const [row] = await ex
    .insert(apiTokens)
    .values({ name, tokenHash: hashToken(token) })
    .returning();
  return row!;
}

export async function findApiTokenByHash(ex: Executor, tokenHash: string): Promise<ApiToken | null> {
  const [row] = await ex.select().from(apiTokens).where(eq(apiTokens.tokenHash, tokenHash));
  return row ?? null;
}

/**
 * Checks a presented token: returns its row (and records the use) if it exists and is not revoked,
 * else null.
 */
export async function authenticateApiToken(
  ex: Executor,
  token: string,
  at: Date = new Date(),
): Promise<ApiToken | null> {
  const [row] = await ex
    .update(apiTokens)
    .set({ lastUsedAt: at })
    .where(and(eq(apiTokens.tokenHash, hashToken(token)), isNull(apiTokens.revokedAt)))
    .returning();
  return row ?? null;
}

/** Revokes a token; null if no token has this id. Revoking twice keeps the first time. */
export async function revokeApiToken(
  ex: Executor,
  id: number,
  at: Date = new Date(),
): Promise<ApiToken | null> {
  await ex
    .update(apiTokens)
    .set({ revokedAt: at })
    .where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt)));
  const [row] = await ex.select().from(apiTokens).where(eq(apiTokens.id, id));
  return row ?? null;
}

export function listApiTokens(ex: Executor): Promise<ApiToken[]> {
  return ex.select().from(apiTokens).orderBy(asc(apiTokens.id));
}
