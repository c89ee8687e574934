import { and, eq, isNull } from "drizzle-orm";
import { apiTokens } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";

export async function insertToken(db: Executor, name: string, tokenHash: string) {
  const rows = await db.insert(apiTokens).values({ name, tokenHash }).returning({ id: apiTokens.id });
  return rows[0]!.id;
}

/** The live (not revoked) token with this hash, touching its last use. */
export async function useToken(db: Executor, tokenHash: string) {
  const rows = await db
    .update(apiTokens)
    .set({ lastUsedAt: new Date() })
    .where(and(eq(apiTokens.tokenHash, tokenHash), isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id, name: apiTokens.name });
  return rows[0] ?? null;
}
