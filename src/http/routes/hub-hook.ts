import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { findRepoByName } from "../../repositories/http-read.repository.ts";
import type { AppDeps } from "../deps.ts";

type HubWebhook = {
  event?: { action?: string; scope?: string };
  repo?: { type?: string; name?: string; headSha?: string };
  updatedRefs?: { ref?: string; newSha?: string | null }[];
};

const SHA = /^[0-9a-f]{40}$/;

/** The new head of main the payload reports (updatedRefs first, then repo.headSha), if well-formed. */
function reportedHead(body: HubWebhook): string | undefined {
  const main = body.updatedRefs?.find((r) => r.ref === "refs/heads/main");
  const sha = main ? main.newSha : body.repo?.headSha;
  return typeof sha === "string" && SHA.test(sha) ? sha : undefined;
}

/** A deleted or moved repo (scope `repo`) is re-checked by a plain poll, which records what it finds. */
function isRepoGoneOrMoved(body: HubWebhook): boolean {
  const action = body.event?.action ?? "";
  return body.event?.scope === "repo" && (action === "delete" || action === "move");
}

/** Compares secrets in constant time (hashing first makes the lengths equal). */
function secretMatches(given: string | undefined, expected: string): boolean {
  const a = createHash("sha256")
    .update(given ?? "")
    .digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b) && given !== undefined;
}

/**
 * POST /hooks/hub: Hugging Face Hub webhooks. A `repo.content` event on a watched model repo that
 * touches main (or says nothing about refs) queues an immediate poll carrying the reported head
 * (`updatedRefs[].newSha`, else `repo.headSha`): a head already seen costs no Hub request. A `repo`
 * delete or move queues a plain poll, which records the repo as not found (or sees it again). The
 * poll's deterministic job id makes a repeat a no-op while one is already queued.
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
      const gone = isRepoGoneOrMoved(body);
      if ((!scope.startsWith("repo.content") && !gone) || (body.repo?.type ?? "model") !== "model") {
        return reply.code(202).send({ queued: false, reason: `ignored scope ${scope || "(none)"}` });
      }
      const refs = body.updatedRefs ?? [];
      if (!gone && refs.length > 0 && !refs.some((r) => r.ref === "refs/heads/main")) {
        return reply.code(202).send({ queued: false, reason: "main not updated" });
      }
      if (!(await findRepoByName(deps.db, name)))
        return reply.code(202).send({ queued: false, reason: "not watched" });
      if (!deps.enqueue) return reply.code(503).send({ error: "no job runner" });
      const knownHead = gone ? undefined : reportedHead(body);
      // The runner gives it the poll's job id, so a poll already queued is not queued twice.
      await deps.enqueue("poll-repo", knownHead ? { repo: name, knownHead } : { repo: name });
      return reply.code(202).send({ queued: true, repo: name });
    });
  };
}
