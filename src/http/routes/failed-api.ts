import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { listFailures, type Requeue, retryFailures } from "../../services/failures.ts";
import { UserInputError } from "../../services/watch-repos.ts";
import { requireBearer } from "../auth.ts";
import type { AppDeps } from "../deps.ts";

const RetryBody = z.union(
  [z.object({ repo: z.string() }).strict(), z.object({ all: z.literal(true) }).strict()],
  { error: "expected {repo: 'OWNER/NAME'} or {all: true}" },
);
const FailedQuery = z.object({ repo: z.string({ error: "expected ?repo=OWNER/NAME" }).optional() });

/**
 * Write API, bearer token only: `GET /api/failed[?repo=OWNER/NAME]` lists failed revisions and jobs;
 * `POST /api/failed/retry` with `{repo}` or `{all: true}` requeues them (as `hubwatch failed`).
 */
export function failedApiRoutes(deps: AppDeps) {
  return async function routes(plain: FastifyInstance) {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    app.addHook("onRequest", requireBearer(deps, "/api/failed"));
    const asUserError = (err: unknown, reply: { code(n: number): { send(b: unknown): unknown } }) => {
      if (err instanceof UserInputError) return reply.code(400).send({ error: err.message });
      throw err;
    };
    app.get("/api/failed", { schema: { querystring: FailedQuery } }, async (req, reply) => {
      try {
        return await listFailures(deps, deps.failedJobs, req.query.repo);
      } catch (err) {
        return asUserError(err, reply);
      }
    });
    app.post("/api/failed/retry", { bodyLimit: 4096, schema: { body: RetryBody } }, async (req, reply) => {
      if (!deps.enqueue) return reply.code(503).send({ error: "this server has no queue to retry on" });
      try {
        const repo = "repo" in req.body ? req.body.repo : undefined;
        return await retryFailures(deps, deps.enqueue as Requeue, deps.failedJobs, repo);
      } catch (err) {
        return asUserError(err, reply);
      }
    });
  };
}
