import type { WebhookEventType } from "../../db/schema/index.ts";
import type { Db } from "../../db/types.ts";
import { getRepoById } from "../../repositories/repos.repository.ts";
import { withTransaction } from "../../repositories/transaction.ts";
import { type Recorded, recordEvent } from "./outbox.ts";

type EmitInput = {
  type: WebhookEventType;
  repoId: number | null;
  /** What makes this event unique (e.g. advisory id + modified, revision sha): re-emitting is a no-op. */
  subject: string;
  data: Record<string, unknown>;
  kinds?: readonly string[];
};

/** Records an event outside the pipeline (admin tools, tests): event and deliveries in one transaction. */
export async function emitWebhookEvent(deps: { db: Db }, input: EmitInput): Promise<Recorded> {
  const name = input.repoId === null ? null : ((await getRepoById(deps.db, input.repoId))?.name ?? null);
  const repo = input.repoId === null || name === null ? null : { id: input.repoId, name };
  return withTransaction(deps.db, (tx) =>
    recordEvent(tx, { type: input.type, repo, subject: input.subject, data: input.data, kinds: input.kinds }),
  );
}
