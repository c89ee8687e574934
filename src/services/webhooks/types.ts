import type { Db } from "../../db/types.ts";
import type { Enqueue } from "../../queue/types.ts";

/** What the webhook services need; built once at boot and passed in (job services bag or HTTP deps). */
export type WebhookDeps = {
  db: Db;
  enqueue: Enqueue;
  /** Allow targets on private/loopback/link-local addresses (tests only). */
  allowPrivateTargets: boolean;
  /** Delays before each retry; default Standard Webhooks' schedule over about 3 days. */
  retryDelaysMs?: readonly number[];
  /** Per-attempt timeout; default 10 s. */
  timeoutMs?: number;
  log?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
};

export const DELIVER_JOB = "deliver-webhook";

/** BullMQ-safe job id for one attempt of one delivery (no ':'). */
export function deliverJobId(subscriptionId: number, eventId: string, attempt: number): string {
  return `${DELIVER_JOB}__${subscriptionId}__${eventId}__${attempt}`;
}
