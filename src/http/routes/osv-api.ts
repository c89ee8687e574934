import type { FastifyInstance } from "fastify";
import { getVuln, queryOsv, queryOsvBatch } from "../../services/http/osv-api.ts";
import { OsvQueryError } from "../../services/http/parse-osv-query.ts";
import type { AppDeps } from "../deps.ts";

// gRPC status codes, as OSV.dev's gateway sends them in {code, message}.
const INVALID_ARGUMENT = 3;
const NOT_FOUND = 5;

/** OSV.dev-compatible API: POST /v1/query, POST /v1/querybatch, GET /v1/vulns/{id}. */
export function osvApiRoutes(deps: AppDeps) {
  return async function routes(app: FastifyInstance) {
    const invalid = (err: unknown) => {
      if (err instanceof OsvQueryError) return { code: INVALID_ARGUMENT, message: err.message };
      throw err;
    };
    app.post("/v1/query", async (req, reply) => {
      try {
        return await queryOsv(deps.db, req.body, deps.osvPageSize);
      } catch (err) {
        return reply.code(400).send(invalid(err));
      }
    });
    app.post("/v1/querybatch", async (req, reply) => {
      try {
        return await queryOsvBatch(deps.db, req.body, deps.osvPageSize);
      } catch (err) {
        return reply.code(400).send(invalid(err));
      }
    });
    app.get<{ Params: { id: string } }>("/v1/vulns/:id", async (req, reply) => {
      const record = await getVuln(deps.db, req.params.id);
      if (!record) return reply.code(404).send({ code: NOT_FOUND, message: "Vulnerability not found" });
      return record;
    });
  };
}
