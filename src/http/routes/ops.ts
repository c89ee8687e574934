import type { FastifyInstance } from "fastify";
import type { Registry } from "prom-client";

/** A dependency's answer to a readiness check. */
export type ReadinessCheck = { name: string; ok: boolean; error?: string };

export type OpsDeps = {
  /** Checks every dependency this process needs (PostgreSQL; Redis in distributed mode). */
  ready: () => Promise<ReadinessCheck[]>;
  metrics?: Registry;
};

/**
 * `/readyz`: 200 when every dependency answers, else 503 naming the ones that do not (load balancers
 * and container healthchecks act on the status; people read the body). `/metrics`: Prometheus text.
 * `/healthz` (the process answers at all) is registered by each app itself.
 */
export function opsRoutes(deps: OpsDeps) {
  return async function routes(app: FastifyInstance) {
    app.get("/readyz", async (_req, reply) => {
      const checks = await deps.ready();
      const down = checks.filter((c) => !c.ok);
      reply.header("cache-control", "no-store");
      if (down.length === 0) return { ok: true, dependencies: checks };
      const error = down.map((c) => `${c.name} is down (${c.error ?? "no answer"})`).join("; ");
      return reply.code(503).send({ ok: false, error, down: down.map((c) => c.name), dependencies: checks });
    });
    const registry = deps.metrics;
    if (registry)
      app.get("/metrics", async (_req, reply) => {
        reply.header("content-type", registry.contentType).header("cache-control", "no-store");
        return registry.metrics();
      });
  };
}
