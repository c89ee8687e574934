import type { Db } from "../../db/types.ts";
import {
  type ApiToken,
  authenticateApiToken,
  createApiToken,
  generateApiToken,
  listApiTokens,
  revokeApiToken,
} from "../../repositories/api-tokens.repository.ts";

/** Creates an API token; the plain token is returned once and only its sha256 is stored. */
export async function createToken(db: Db, name: string): Promise<{ id: number; token: string }> {
  const token = generateApiToken();
  const row = await createApiToken(db, name, token);
  return { id: row.id, token };
}

/** The token's row for an `Authorization: Bearer ...` header, or null. */
export async function authenticate(db: Db, header: string | undefined) {
  const m = /^Bearer\s+(\S{10,200})$/i.exec(header ?? "");
  if (!m?.[1]) return null;
  return authenticateApiToken(db, m[1]);
}

/** Tokens as listed to an admin: never the hash. */
type TokenInfo = {
  id: number;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

function info(t: ApiToken): TokenInfo {
  return { id: t.id, name: t.name, createdAt: t.createdAt, lastUsedAt: t.lastUsedAt, revokedAt: t.revokedAt };
}

export async function listTokens(db: Db): Promise<TokenInfo[]> {
  return (await listApiTokens(db)).map(info);
}

/** Revokes a token (it stops authenticating at once); null when no token has this id. */
export async function revokeToken(db: Db, id: number): Promise<TokenInfo | null> {
  const row = await revokeApiToken(db, id);
  return row ? info(row) : null;
}
