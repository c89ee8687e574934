import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { getVuln, OSV_MAX_BATCH, queryOsv, queryOsvBatch } from "../../services/http/osv-api.ts";
import { OsvQueryError } from "../../services/http/parse-osv-query.ts";
import type { AppDeps } from "../deps.ts";
import type { ResponseCache } from "../response-cache.ts";

// gRPC status codes, as OSV.dev's gateway sends them in {code, message}.
const INVALID_ARGUMENT = 3;
const NOT_FOUND = 5;

/** Bodies up to this size are cache keys as they are; larger queries are answered fresh. */
const MAX_CACHED_QUERY_CHARS = 16_384;

/** The body as a cache key; null when too large or too deep to serialise (it is then answered fresh). */
function cacheKey(body: unknown): string | null {
  try {
    const key = JSON.stringify(body) ?? "";
    return key.length > MAX_CACHED_QUERY_CHARS ? null : key;
  } catch {
    return null;
  }
}

// Outer shapes only: the query fields are parsed by parseOsvQuery, with OSV.dev's messages.
const QueryBody = z.record(z.string(), z.unknown(), { error: "Invalid query: expected a JSON object." });
const BATCH_SHAPE = "queries must be an array.";
const BatchBody = z.object(
  {
    queries: z
      .array(z.unknown(), { error: BATCH_SHAPE })
      .max(OSV_MAX_BATCH, { error: `Too many queries (max ${OSV_MAX_BATCH}).` }),
  },
  { error: BATCH_SHAPE },
);
const VulnParams = z.object({ id: z.string() });

/** OSV.dev-compatible API: POST /v1/query, POST /v1/querybatch, GET /v1/vulns/{id}. */
export function osvApiRoutes(deps: AppDeps, cached: ResponseCache) {
  const answer = <T>(kind: string, body: unknown, compute: () => Promise<T>): Promise<T> => {
    const key = cacheKey(body);
    return key === null ? compute() : cached(`${kind}\n${key}`, compute);
  };
  return async function routes(plain: FastifyInstance) {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    const invalid = (err: unknown) => {
      if (err instanceof OsvQueryError) return { code: INVALID_ARGUMENT, message: err.message };
      throw err;
    };
    app.post("/v1/query", { schema: { body: QueryBody } }, async (req, reply) => {
      try {
        return await answer("query", req.body, () => queryOsv(deps.db, req.body, deps.osvPageSize));
      } catch (err) {
        return reply.code(400).send(invalid(err));
      }
    });
    app.post("/v1/querybatch", { schema: { body: BatchBody } }, async (req, reply) => {
      try {
        return await answer("querybatch", req.body, () => queryOsvBatch(deps.db, req.body, deps.osvPageSize));
      } catch (err) {
        return reply.code(400).send(invalid(err));
      }
    });
    app.get(
      "/v1/vulns/:id",
      { schema: { params: VulnParams }, config: { replay: true } },
      async (req, reply) => {
        const id = req.params.id;
        const record = await cached(`vuln\n${id}`, () => getVuln(deps.db, id));
        if (!record) return reply.code(404).send({ code: NOT_FOUND, message: "Vulnerability not found" });
        return record;
      },
    );
  };
}
