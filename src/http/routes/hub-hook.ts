import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { findRepoByName } from "../../repositories/http-read.repository.ts";
import type { AppDeps } from "../deps.ts";

type HubWebhook = {
  event?: { action?: string; scope?: string };
  repo?: { type?: string; name?: string };
  updatedRefs?: { ref?: string }[];
};

/** Compares secrets in constant time (hashing first makes the lengths equal). */
export function secretMatches(given: string | undefined, expected: string): boolean {
  const a = createHash("sha256")
    .update(given ?? "")
    .digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b) && given !== undefined;
}

/**
 * POST /hooks/hub: Hugging Face Hub webhooks. A `repo.content` event on a watched model repo that
 * touches main (or says nothing about refs) queues an immediate poll; the poll's deterministic job id
 * makes it a no-op while one is already queued.
 */
export function hubHookRoutes(deps: AppDeps) {
  return async function routes(app: FastifyInstance) {
    app.post("/hooks/hub", { bodyLimit: 256 * 1024 }, async (req, reply) => {
      if (!deps.hubWebhookSecret) return reply.code(404).send({ error: "Hub webhooks are not configured" });
      const given = req.headers["x-webhook-secret"];
      if (!secretMatches(typeof given === "string" ? given : undefined, deps.hubWebhookSecret)) {
        return reply.code(401).send({ error: "bad X-Webhook-Secret" });
      }
      const body = (req.body ?? {}) as HubWebhook;
      const scope = body.event?.scope ?? "";
      const name = body.repo?.name ?? "";
      if (!scope.startsWith("repo.content") || (body.repo?.type ?? "model") !== "model") {
        return reply.code(202).send({ queued: false, reason: `ignored scope ${scope || "(none)"}` });
      }
      const refs = body.updatedRefs ?? [];
      if (refs.length > 0 && !refs.some((r) => r.ref === "refs/heads/main")) {
        return reply.code(202).send({ queued: false, reason: "main not updated" });
      }
      if (!(await findRepoByName(deps.db, name)))
        return reply.code(202).send({ queued: false, reason: "not watched" });
      if (!deps.enqueue) return reply.code(503).send({ error: "no job runner" });
      await deps.enqueue("poll-repo", { repo: name });
      return reply.code(202).send({ queued: true, repo: name });
    });
  };
}
