import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { authenticate } from "../services/http/tokens.ts";
import type { AppDeps } from "./deps.ts";

/** Compares secrets in constant time (hashing first makes the lengths equal). */
export function secretMatches(given: string | undefined, expected: string): boolean {
  const a = createHash("sha256")
    .update(given ?? "")
    .digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b) && given !== undefined;
}

/**
 * An onRequest hook for the write API under `prefix`: a bearer token from `hubwatch token create`, or
 * the process's local admin token (`deps.localAdminToken`, which the CLI on the same machine reads from
 * the data folder), else 401. The local token needs no store read.
 */
export function requireBearer(deps: Pick<AppDeps, "db" | "localAdminToken">, prefix: string) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    if (!req.url.startsWith(prefix)) return;
    const header = req.headers.authorization;
    const local = deps.localAdminToken;
    if (local && secretMatches(/^Bearer\s+(\S+)$/i.exec(header ?? "")?.[1], local)) return;
    if (await authenticate(deps.db, header)) return;
    reply.header("www-authenticate", 'Bearer realm="hubwatch"');
    return reply.code(401).send({ error: "a valid bearer token is required (hubwatch token create)" });
  };
}
