import type { Db } from "../../db/types.ts";
import {
  authenticateApiToken,
  createApiToken,
  generateApiToken,
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
