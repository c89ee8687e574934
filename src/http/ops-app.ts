import Fastify, { type FastifyInstance } from "fastify";
import { type OpsDeps, opsRoutes } from "./routes/ops.ts";

/**
 * The small HTTP surface of a process that serves nothing else (worker, scheduler): `/healthz`,
 * `/readyz` and `/metrics`, for container healthchecks and Prometheus.
 */
export async function createOpsApp(deps: OpsDeps): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  app.get("/healthz", async () => ({ ok: true }));
  await app.register(opsRoutes(deps));
  return app;
}
