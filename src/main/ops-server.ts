import { sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Config } from "../config/env.ts";
import type { Db } from "../db/types.ts";
import { createOpsApp } from "../http/ops-app.ts";
import type { ReadinessCheck } from "../http/routes/ops.ts";
import type { Metrics } from "../ops/metrics.ts";
import { checkDependencies, pingRedis } from "./dependencies.ts";

/** The readiness checks of a process: PostgreSQL (or PGlite) always, Redis when REDIS_URL is set. */
export function readiness(config: Config, db: Db): () => Promise<ReadinessCheck[]> {
  const redisUrl = config.REDIS_URL;
  return () =>
    checkDependencies([
      { name: "postgresql", check: () => db.execute(sql`select 1`) },
      ...(redisUrl ? [{ name: "redis" as const, check: () => pingRedis(redisUrl) }] : []),
    ]);
}

/**
 * Worker and scheduler: `/healthz`, `/readyz` and `/metrics` on HUBWATCH_HEALTH_PORT (at HOST) when it
 * is set; returns its close function (a no-op when unset).
 */
export async function startOpsServer(
  config: Config,
  db: Db,
  metrics: Metrics,
  log: Logger,
): Promise<() => Promise<void>> {
  const port = config.HUBWATCH_HEALTH_PORT;
  if (port === undefined) return async () => {};
  const app = await createOpsApp({ ready: readiness(config, db), metrics: metrics.registry });
  let address: string;
  try {
    address = await app.listen({ host: config.HOST, port });
  } catch (err) {
    await app.close();
    const code = (err as NodeJS.ErrnoException).code;
    throw code === "EADDRINUSE"
      ? new Error(`hubwatch: ${config.HOST}:${port} (HUBWATCH_HEALTH_PORT) is already in use`)
      : err;
  }
  log.info({ url: address }, "health and metrics served");
  return () => app.close();
}
