import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { listAttempts, listDeliveries } from "../../repositories/webhook-deliveries.repository.ts";
import { baseOffer } from "../../services/adapter-base-offer.ts";
import { authenticate, listTokens, revokeToken } from "../../services/http/tokens.ts";
import { UserInputError, unwatchRepo, watchRepo } from "../../services/watch-repos.ts";
import {
  createSubscription,
  deleteSubscription,
  enableHook,
  listSubscriptions,
  publicSubscription,
  redeliver,
  rotateSecret,
} from "../../services/webhooks/subscriptions.ts";
import type { AppDeps } from "../deps.ts";

const WatchBody = z.object({ repo: z.string() });

/** Write API under /api, bearer-token only: watch/unwatch repos, manage webhook subscriptions. */
export function adminRoutes(deps: AppDeps) {
  return async function routes(app: FastifyInstance) {
    app.addHook("onRequest", async (req, reply) => {
      if (!req.url.startsWith("/api/")) return;
      const who = await authenticate(deps.db, req.headers.authorization);
      if (!who) {
        reply.header("www-authenticate", 'Bearer realm="hubwatch"');
        return reply.code(401).send({ error: "a valid bearer token is required (hubwatch token create)" });
      }
    });
    const enqueue = deps.enqueue ?? (async () => {});
    const wh = () => ({ db: deps.db, allowPrivateTargets: deps.allowPrivateTargets ?? false });
    const id = (raw: string) => Number(raw) || 0;

    app.post("/api/repos", { bodyLimit: 4096 }, async (req, reply) => {
      const body = WatchBody.safeParse(req.body);
      if (!body.success) return reply.code(400).send({ error: "expected {repo: 'OWNER/NAME'}" });
      try {
        const created = await watchRepo(deps, body.data.repo);
        await enqueue("poll-repo", { repo: body.data.repo });
        // A PEFT adapter's base, once known from a processed revision: {repo, watched}, else null.
        const base = await baseOffer(deps, body.data.repo);
        return reply.code(created ? 201 : 200).send({ repo: body.data.repo, created, base });
      } catch (err) {
        if (err instanceof UserInputError) return reply.code(400).send({ error: err.message });
        throw err;
      }
    });
    app.delete<{ Params: { owner: string; name: string } }>("/api/repos/:owner/:name", async (req, reply) => {
      try {
        const removed = await unwatchRepo(deps, `${req.params.owner}/${req.params.name}`);
        return reply.code(removed ? 200 : 404).send({ removed });
      } catch (err) {
        if (err instanceof UserInputError) return reply.code(400).send({ error: err.message });
        throw err;
      }
    });

    app.get("/api/subscriptions", async () =>
      (await listSubscriptions(deps.db)).map((s) => publicSubscription(s)),
    );
    app.post("/api/subscriptions", { bodyLimit: 16 * 1024 }, async (req, reply) => {
      try {
        const sub = await createSubscription(wh(), req.body as never);
        return reply.code(201).send(publicSubscription(sub, true));
      } catch (err) {
        return reply
          .code(400)
          .send({ error: err instanceof z.ZodError ? z.prettifyError(err) : String((err as Error).message) });
      }
    });
    app.delete<{ Params: { id: string } }>("/api/subscriptions/:id", async (req, reply) => {
      const removed = await deleteSubscription(deps.db, Number(req.params.id) || 0);
      return reply.code(removed ? 200 : 404).send({ removed });
    });
    app.get<{ Params: { id: string } }>("/api/subscriptions/:id/deliveries", async (req) =>
      listDeliveries(deps.db, { subscriptionId: Number(req.params.id) || 0 }),
    );
    app.get<{ Params: { id: string; eventId: string } }>(
      "/api/subscriptions/:id/deliveries/:eventId/attempts",
      async (req) => listAttempts(deps.db, Number(req.params.id) || 0, req.params.eventId),
    );
    app.post<{ Params: { id: string; eventId: string } }>(
      "/api/subscriptions/:id/deliveries/:eventId/redeliver",
      async (req, reply) => {
        const subscriptionId = id(req.params.id);
        const r = await redeliver(deps.db, subscriptionId, req.params.eventId);
        if (!r.ok && r.reason === "disabled")
          return reply.code(409).send({ queued: false, error: `subscription disabled: ${r.detail}` });
        if (!r.ok) return reply.code(404).send({ queued: false, error: "no such delivery" });
        await enqueue("deliver-webhook", { subscriptionId });
        return reply.code(202).send({ queued: true });
      },
    );
    app.post<{ Params: { id: string } }>("/api/subscriptions/:id/enable", async (req, reply) => {
      const sub = await enableHook(deps.db, id(req.params.id));
      if (!sub) return reply.code(404).send({ error: "no such subscription" });
      // Deliveries still pending while it was disabled go out now.
      await enqueue("deliver-webhook", { subscriptionId: sub.id });
      return publicSubscription(sub);
    });
    app.post<{ Params: { id: string } }>("/api/subscriptions/:id/rotate-secret", async (req, reply) => {
      const sub = await rotateSecret(deps.db, id(req.params.id));
      if (!sub) return reply.code(404).send({ error: "no such subscription" });
      return publicSubscription(sub, true);
    });
    app.get("/api/tokens", async () => listTokens(deps.db));
    app.delete<{ Params: { id: string } }>("/api/tokens/:id", async (req, reply) => {
      const token = await revokeToken(deps.db, id(req.params.id));
      return token ? token : reply.code(404).send({ error: "no such token" });
    });
  };
}
