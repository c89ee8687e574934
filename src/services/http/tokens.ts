import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../../db/types.ts";
import { insertToken, useToken } from "../../repositories/http-tokens.repository.ts";

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Creates an API token; the plain token is returned once and only its sha256 is stored. */
export async function createApiToken(db: Db, name: string): Promise<{ id: number; token: string }> {
  const token = `hwt_${randomBytes(32).toString("base64url")}`;
  const id = await insertToken(db, name, hashToken(token));
  return { id, token };
}

/** The token's owner for an `Authorization: Bearer ...` header, or null. */
export async function authenticate(db: Db, header: string | undefined) {
  const m = /^Bearer\s+(\S{10,200})$/i.exec(header ?? "");
  if (!m?.[1]) return null;
  return useToken(db, hashToken(m[1]));
}
