import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { baseOffer } from "../../services/adapter-base-offer.ts";
import { createToken, listTokens, revokeToken } from "../../services/http/tokens.ts";
import { UserInputError, unwatchRepo, watchRepo } from "../../services/watch-repos.ts";
import {
  createSubscription,
  deleteSubscription,
  enableHook,
  listAttempts,
  listDeliveries,
  listSubscriptions,
  publicSubscription,
  redeliver,
  rotateSecret,
  SubscriptionInput,
} from "../../services/webhooks/subscriptions.ts";
import { requireBearer } from "../auth.ts";
import type { AppDeps } from "../deps.ts";
import { repoPart } from "../validation.ts";

const BAD_REPO = "expected {repo: 'OWNER/NAME'}";
const WatchBody = z.object({ repo: z.string({ error: BAD_REPO }) }, { error: BAD_REPO });
const RepoParams = z.object({
  owner: repoPart("expected /api/repos/OWNER/NAME"),
  name: repoPart("expected /api/repos/OWNER/NAME"),
});
const BAD_ID = "expected a numeric id";
const Id = z.coerce.number({ error: BAD_ID }).int({ error: BAD_ID }).min(1, { error: BAD_ID });
const IdParams = z.object({ id: Id });
const DeliveryParams = z.object({
  id: Id,
  eventId: z.string().regex(/^evt_[0-9a-f]{1,64}$/, { error: "expected an event id (evt_...)" }),
});
const BAD_NAME = "expected {name: 'LABEL'} (1 to 100 characters)";
const TokenBody = z
  .object(
    { name: z.string({ error: BAD_NAME }).trim().min(1, BAD_NAME).max(100, BAD_NAME) },
    { error: BAD_NAME },
  )
  .optional();

/** A caller's mistake (a bad repo name, a refused webhook target) is a 400; anything else goes on. */
function inputError(err: unknown): never {
  if (err instanceof UserInputError) throw Object.assign(new Error(err.message), { statusCode: 400 });
  throw err;
}

/**
 * Write API under /api, bearer token only: watch/unwatch repos, manage webhook subscriptions and tokens.
 * Params and bodies are checked by zod schemas (400 with the schema's message); a store outage is the
 * app error handler's 503, never a raw driver message.
 */
export function adminRoutes(deps: AppDeps) {
  return async function routes(plain: FastifyInstance) {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    app.addHook("onRequest", requireBearer(deps, "/api/"));
    const enqueue = deps.enqueue ?? (async () => {});
    const wh = () => ({ db: deps.db, allowPrivateTargets: deps.allowPrivateTargets ?? false });

    app.post("/api/repos", { bodyLimit: 4096, schema: { body: WatchBody } }, async (req, reply) => {
      const created = await watchRepo(deps, req.body.repo).catch(inputError);
      await enqueue("poll-repo", { repo: req.body.repo });
      // A PEFT adapter's base, once known from a processed revision: {repo, watched}, else null.
      const base = await baseOffer(deps, req.body.repo);
      return reply.code(created ? 201 : 200).send({ repo: req.body.repo, created, base });
    });
    app.delete("/api/repos/:owner/:name", { schema: { params: RepoParams } }, async (req, reply) => {
      const removed = await unwatchRepo(deps, `${req.params.owner}/${req.params.name}`).catch(inputError);
      return reply.code(removed ? 200 : 404).send({ removed });
    });

    app.get("/api/subscriptions", async () =>
      (await listSubscriptions(deps.db)).map((s) => publicSubscription(s)),
    );
    const subscriptionOpts = { bodyLimit: 16 * 1024, schema: { body: SubscriptionInput } };
    app.post("/api/subscriptions", subscriptionOpts, async (req, reply) => {
      const sub = await createSubscription(wh(), req.body).catch(inputError);
      return reply.code(201).send(publicSubscription(sub, true));
    });
    app.delete("/api/subscriptions/:id", { schema: { params: IdParams } }, async (req, reply) => {
      const removed = await deleteSubscription(deps.db, req.params.id);
      return reply.code(removed ? 200 : 404).send({ removed });
    });
    app.get("/api/subscriptions/:id/deliveries", { schema: { params: IdParams } }, async (req) =>
      listDeliveries(deps.db, { subscriptionId: req.params.id }),
    );
    const delivery = { schema: { params: DeliveryParams } };
    app.get("/api/subscriptions/:id/deliveries/:eventId/attempts", delivery, async (req) =>
      listAttempts(deps.db, req.params.id, req.params.eventId),
    );
    app.post("/api/subscriptions/:id/deliveries/:eventId/redeliver", delivery, async (req, reply) => {
      const subscriptionId = req.params.id;
      const r = await redeliver(deps.db, subscriptionId, req.params.eventId);
      if (!r.ok && r.reason === "disabled")
        return reply.code(409).send({ queued: false, error: `subscription disabled: ${r.detail}` });
      if (!r.ok) return reply.code(404).send({ queued: false, error: "no such delivery" });
      await enqueue("deliver-webhook", { subscriptionId });
      return reply.code(202).send({ queued: true });
    });
    app.post("/api/subscriptions/:id/enable", { schema: { params: IdParams } }, async (req, reply) => {
      const sub = await enableHook(deps.db, req.params.id);
      if (!sub) return reply.code(404).send({ error: "no such subscription" });
      // Deliveries still pending while it was disabled go out now.
      await enqueue("deliver-webhook", { subscriptionId: sub.id });
      return publicSubscription(sub);
    });
    app.post("/api/subscriptions/:id/rotate-secret", { schema: { params: IdParams } }, async (req, reply) => {
      const sub = await rotateSecret(deps.db, req.params.id);
      if (!sub) return reply.code(404).send({ error: "no such subscription" });
      return publicSubscription(sub, true);
    });

    app.get("/api/tokens", async () => listTokens(deps.db));
    // The plain token is in this answer only; the store keeps its sha256.
    app.post("/api/tokens", { bodyLimit: 4096, schema: { body: TokenBody } }, async (req, reply) =>
      reply.code(201).send(await createToken(deps.db, req.body?.name ?? "api")),
    );
    app.delete("/api/tokens/:id", { schema: { params: IdParams } }, async (req, reply) => {
      const token = await revokeToken(deps.db, req.params.id);
      return token ? token : reply.code(404).send({ error: "no such token" });
    });
  };
}
