import rateLimit from "@fastify/rate-limit";
import { sql } from "drizzle-orm";
import Fastify, { type FastifyInstance } from "fastify";
import { isStoreUnavailable } from "../db/errors.ts";
import type { AppDeps } from "./deps.ts";
import { createResponseCache } from "./response-cache.ts";
import { registerResponseReplay } from "./response-replay.ts";
import { adminRoutes } from "./routes/admin-api.ts";
import { badgeRoutes } from "./routes/badges.ts";
import { failedApiRoutes } from "./routes/failed-api.ts";
import { hubHookRoutes } from "./routes/hub-hook.ts";
import { jsonApiRoutes } from "./routes/json-api.ts";
import { opsRoutes } from "./routes/ops.ts";
import { osvApiRoutes } from "./routes/osv-api.ts";
import { osvFeedRoutes } from "./routes/osv-feed.ts";
import { pageRoutes } from "./routes/pages.ts";
import { firstIssueMessage, useZodSchemas } from "./validation.ts";

/** Builds the HTTP app (no listen): OSV API and feed, badges, history pages, admin API, Hub webhook. */
export async function createApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    ...(deps.log ? { loggerInstance: deps.log } : { logger: false }),
    bodyLimit: 1024 * 1024,
    // Percent-encoded dots and slashes must not turn into path segments we then trust.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    trustProxy: false,
    schemaErrorFormatter: firstIssueMessage,
  });
  useZodSchemas(app);
  // OSV.dev's docs use `curl -d '{...}'`, which sends form or text content types: read those as JSON too.
  app.addContentTypeParser(
    ["application/x-www-form-urlencoded", "text/plain"],
    { parseAs: "string" },
    (_req, body, done) => {
      try {
        done(null, body === "" ? {} : JSON.parse(body as string));
      } catch {
        done(Object.assign(new Error("Invalid JSON body"), { statusCode: 400 }), undefined);
      }
    },
  );
  if (deps.rateLimit !== false) {
    const rl = deps.rateLimit ?? { max: 600, timeWindowMs: 60_000 };
    // Public reads only: the token-authenticated API and the secret-checked Hub hook are not limited per IP.
    await app.register(rateLimit, {
      max: rl.max,
      timeWindow: rl.timeWindowMs,
      allowList: (req) =>
        (req.url.startsWith("/api/") && !(req.method === "GET" && req.url.startsWith("/api/repos"))) ||
        req.url.startsWith("/hooks/"),
    });
  }
  app.setErrorHandler((err: Error & { statusCode?: number }, req, reply) => {
    // The store down or restarting is the client's cue to retry (503), never a raw driver message.
    const unavailable = isStoreUnavailable(err);
    const status = unavailable ? 503 : err.statusCode && err.statusCode >= 400 ? err.statusCode : 500;
    if (status >= 500) req.log.error({ err }, "request failed");
    if (unavailable) reply.header("retry-after", "5");
    const message = unavailable
      ? "Service unavailable: the store cannot be reached; retry shortly"
      : status >= 500
        ? "Internal error"
        : err.message;
    if (req.url.startsWith("/v1/"))
      return reply.code(status).send({ code: status === 400 ? 3 : status === 503 ? 14 : 13, message });
    return reply.code(status).send({ error: message });
  });
  app.get("/healthz", async () => ({ ok: true }));
  await app.register(opsRoutes({ ready: deps.ready ?? storeOnly(deps), metrics: deps.metrics }));
  registerResponseReplay(app, deps.storeGeneration);
  const cached = createResponseCache(deps.storeGeneration);
  await app.register(osvApiRoutes(deps, cached));
  await app.register(osvFeedRoutes(deps, cached));
  await app.register(badgeRoutes(deps, cached));
  await app.register(pageRoutes(deps, cached));
  await app.register(jsonApiRoutes(deps));
  await app.register(adminRoutes(deps));
  await app.register(hubHookRoutes(deps));
  await app.register(failedApiRoutes(deps));
  return app;
}

/** Readiness when the caller named no checks: the store answers a trivial query. */
function storeOnly(deps: AppDeps) {
  return async () => {
    try {
      await deps.db.execute(sql`select 1`);
      return [{ name: "postgresql", ok: true }];
    } catch (err) {
      return [{ name: "postgresql", ok: false, error: err instanceof Error ? err.message : String(err) }];
    }
  };
}
