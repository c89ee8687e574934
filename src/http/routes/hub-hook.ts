import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { HubWebhook, planHubHook } from "../../services/http/hub-hook.ts";
import { secretMatches } from "../auth.ts";
import type { AppDeps } from "../deps.ts";

/**
 * POST /hooks/hub: Hugging Face Hub webhooks. A `repo.content` event on a watched model repo that
 * touches main (or says nothing about refs) queues an immediate poll carrying the reported head
 * (`updatedRefs[].newSha`, else `repo.headSha`): a head already seen costs no Hub request. A `repo`
 * delete or move queues a plain poll, which records the repo as not found (or sees it again). The
 * poll's deterministic job id makes a repeat a no-op while one is already queued.
 */
export function hubHookRoutes(deps: AppDeps) {
  // Before the body is read or checked: an unconfigured hook is 404, a wrong secret 401, whatever the body.
  const checkSecret = async (req: FastifyRequest, reply: FastifyReply) => {
    if (!deps.hubWebhookSecret) return reply.code(404).send({ error: "Hub webhooks are not configured" });
    const given = req.headers["x-webhook-secret"];
    if (!secretMatches(typeof given === "string" ? given : undefined, deps.hubWebhookSecret)) {
      return reply.code(401).send({ error: "bad X-Webhook-Secret" });
    }
  };
  return async function routes(plain: FastifyInstance) {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    const options = { bodyLimit: 256 * 1024, onRequest: checkSecret, schema: { body: HubWebhook } };
    app.post("/hooks/hub", options, async (req, reply) => {
      const plan = await planHubHook(deps.db, req.body ?? {});
      if (!plan.queued) return reply.code(202).send(plan);
      if (!deps.enqueue) return reply.code(503).send({ error: "no job runner" });
      const { repo, knownHead } = plan;
      // The runner gives it the poll's job id, so a poll already queued is not queued twice.
      await deps.enqueue("poll-repo", knownHead ? { repo, knownHead } : { repo });
      return reply.code(202).send({ queued: true, repo });
    });
  };
}
