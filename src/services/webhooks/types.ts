import type { Db } from "../../db/types.ts";

/** What the webhook services need; built once at boot and passed in (job services bag or HTTP deps). */
export type WebhookDeps = {
  db: Db;
  /** Allow targets on private/loopback/link-local addresses (tests only). */
  allowPrivateTargets: boolean;
  /** Delays before each retry; default Standard Webhooks' schedule over about 3 days. */
  retryDelaysMs?: readonly number[];
  /** Per-attempt timeout; default 10 s. */
  timeoutMs?: number;
  /** How long past its timeout an attempt's claim lasts before the delivery is due again; default 20 s. */
  leaseMarginMs?: number;
  log?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
};
