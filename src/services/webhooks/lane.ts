import { claimNextDue } from "../../repositories/webhook-deliveries.repository.ts";
import {
  nextDueAt,
  subscriptionsWithDueDeliveries,
} from "../../repositories/webhook-deliveries-read.repository.ts";
import { getSubscription } from "../../repositories/webhook-subscriptions.repository.ts";
import { type AttemptOutcome, deliverAttempt } from "./deliver-attempt.ts";
import type { WebhookDeps } from "./types.ts";

/** How long one lane run keeps sending before it yields its worker slot (it continues right after). */
const LANE_BUDGET_MS = 30_000;
/** A retry due within this long is waited for by the lane itself; later ones are the relay's. */
const LANE_WAIT_MS = 5_000;
/** An attempt's lease beyond its timeout: past it, a delivery whose worker died is due again. */
const LEASE_MARGIN_MS = 20_000;

type LaneRun = {
  outcomes: AttemptOutcome[];
  /** Run the lane again in this many ms (more due soon, or the budget ran out); null: nothing soon. */
  againInMs: number | null;
};

/**
 * One subscription's delivery lane: sends its due deliveries one at a time, oldest due first, until
 * none is due or the time budget is spent. Each subscription has its own lane (one job id per
 * subscription), so a hanging receiver holds one worker slot at most and never delays other receivers.
 * Every delivery is claimed in the store before it is sent, so two runs of a lane never send one twice.
 */
export async function runDeliveryLane(
  deps: WebhookDeps,
  subscriptionId: number,
  budgetMs = LANE_BUDGET_MS,
): Promise<LaneRun> {
  const started = Date.now();
  const outcomes: AttemptOutcome[] = [];
  const leaseMs = (deps.timeoutMs ?? 10_000) + (deps.leaseMarginMs ?? LEASE_MARGIN_MS);
  for (;;) {
    const sub = await getSubscription(deps.db, subscriptionId);
    if (!sub?.enabled) return { outcomes, againInMs: null };
    const now = new Date();
    const claimed = await claimNextDue(deps.db, sub.id, now, new Date(now.getTime() + leaseMs));
    if (!claimed) break;
    outcomes.push(await deliverAttempt(deps, sub, claimed.eventId, claimed.attempts + 1));
    if (Date.now() - started >= budgetMs) return { outcomes, againInMs: 0 };
  }
  const next = await nextDueAt(deps.db, subscriptionId);
  const wait = next === null ? null : Math.max(0, next.getTime() - Date.now());
  return { outcomes, againInMs: wait !== null && wait <= LANE_WAIT_MS ? wait : null };
}

/**
 * The outbox relay's read: every enabled subscription with a delivery due now (new, a retry whose
 * time has come, or one stranded by a lost queue or a dead worker). Their lanes are queued by the
 * relay job; ticking twice queues nothing twice (one job id per lane) and sends nothing twice (claims).
 */
export function lanesDue(deps: Pick<WebhookDeps, "db">, now: Date = new Date()): Promise<number[]> {
  return subscriptionsWithDueDeliveries(deps.db, now);
}
