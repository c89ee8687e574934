import { z } from "zod";
import type { Db } from "../../db/types.ts";
import { getRepoByName } from "../../repositories/repos.repository.ts";

const BAD_PAYLOAD =
  "expected a Hub webhook payload: {event: {action, scope}, repo: {type, name, headSha}, updatedRefs: [{ref, newSha}]}";
const text = z.string({ error: BAD_PAYLOAD }).optional();

/** The fields of a Hugging Face Hub webhook payload that hubwatch reads; others are dropped. */
export const HubWebhook = z
  .object(
    {
      event: z.object({ action: text, scope: text }, { error: BAD_PAYLOAD }).optional(),
      repo: z.object({ type: text, name: text, headSha: text.nullable() }, { error: BAD_PAYLOAD }).optional(),
      updatedRefs: z
        .array(z.object({ ref: text, newSha: text.nullable() }, { error: BAD_PAYLOAD }), {
          error: BAD_PAYLOAD,
        })
        .optional(),
    },
    { error: BAD_PAYLOAD },
  )
  // A POST without a body is an event that says nothing: ignored like an unknown scope.
  .nullish();
export type HubWebhook = NonNullable<z.output<typeof HubWebhook>>;

/** What to do with a Hub event: poll a watched repo (with the head it reports, if any), or nothing. */
type HubHookPlan = { queued: false; reason: string } | { queued: true; repo: string; knownHead?: string };

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

/**
 * A `repo.content` event on a watched model repo that touches main (or says nothing about refs) is a
 * poll carrying the reported head; a `repo` delete or move is a plain poll; anything else is ignored.
 */
export async function planHubHook(db: Db, body: HubWebhook): Promise<HubHookPlan> {
  const scope = body.event?.scope ?? "";
  const name = body.repo?.name ?? "";
  const gone = isRepoGoneOrMoved(body);
  if ((!scope.startsWith("repo.content") && !gone) || (body.repo?.type ?? "model") !== "model") {
    return { queued: false, reason: `ignored scope ${scope || "(none)"}` };
  }
  const refs = body.updatedRefs ?? [];
  if (!gone && refs.length > 0 && !refs.some((r) => r.ref === "refs/heads/main")) {
    return { queued: false, reason: "main not updated" };
  }
  if (!(await getRepoByName(db, name))) return { queued: false, reason: "not watched" };
  const knownHead = gone ? undefined : reportedHead(body);
  return knownHead ? { queued: true, repo: name, knownHead } : { queued: true, repo: name };
}
