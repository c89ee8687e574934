import type { WebhookEventType } from "../../db/schema/index.ts";
import type { Executor } from "../../db/types.ts";
import { insertDelivery } from "../../repositories/webhook-deliveries.repository.ts";
import {
  insertEvent,
  insertEventsWithDeliveries,
  makeEventId,
} from "../../repositories/webhook-events.repository.ts";
import { listSubscriptions } from "../../repositories/webhook-subscriptions.repository.ts";
import { subscriptionWants } from "./match.ts";

export type OutboxEvent = {
  type: WebhookEventType;
  repo: { id: number; name: string } | null;
  /** What makes this event unique (upstream facts: repo, shas, advisory + change): re-recording is a no-op. */
  subject: string;
  data: Record<string, unknown>;
  /** Change kinds the event is about, for subscriptions filtering by kind. */
  kinds?: readonly string[];
};

export type Recorded = { eventId: string; created: boolean; subscriptionIds: number[] };

/**
 * The outbox's write: stores the event (its id deterministic, the Standard Webhooks `webhook-id`) and
 * one pending delivery per enabled subscription that wants it, on `ex`, which callers pass as the
 * transaction that makes the change the event reports. Nothing is queued here: the returned
 * subscriptions' lanes are queued by the job after commit, and the relay finds any that were not.
 */
export async function recordEvent(ex: Executor, e: OutboxEvent): Promise<Recorded> {
  const id = makeEventId(e.type, e.subject);
  const { created } = await insertEvent(ex, {
    id,
    type: e.type,
    repoId: e.repo?.id ?? null,
    payload: { type: e.type, data: e.data },
  });
  if (!created) return { eventId: id, created, subscriptionIds: [] };
  const facts = { type: e.type, repo: e.repo?.name ?? null, kinds: e.kinds ?? [] };
  const subscriptionIds: number[] = [];
  for (const sub of await listSubscriptions(ex, { enabledOnly: true })) {
    if (!subscriptionWants(sub, facts)) continue;
    if (await insertDelivery(ex, sub.id, id)) subscriptionIds.push(sub.id);
  }
  return { eventId: id, created, subscriptionIds };
}

/**
 * recordEvent for several events of one change, in two statements whatever their number: the enabled
 * subscriptions, then the events and the deliveries of those this call creates. Returns the events
 * created, in the order given, each with the subscriptions it is to be delivered to.
 */
export async function recordEvents(ex: Executor, events: OutboxEvent[]): Promise<Recorded[]> {
  if (events.length === 0) return [];
  const subscriptions = await listSubscriptions(ex, { enabledOnly: true });
  const rows = events.map((e) => ({
    event: e,
    id: makeEventId(e.type, e.subject),
    facts: { type: e.type, repo: e.repo?.name ?? null, kinds: e.kinds ?? [] },
  }));
  const created = await insertEventsWithDeliveries(
    ex,
    rows.map((r) => ({
      id: r.id,
      type: r.event.type,
      repoId: r.event.repo?.id ?? null,
      payload: { type: r.event.type, data: r.event.data },
    })),
    rows.flatMap((r) =>
      subscriptions
        .filter((sub) => subscriptionWants(sub, r.facts))
        .map((sub) => ({ subscriptionId: sub.id, eventId: r.id })),
    ),
  );
  return created.map((c) => ({ eventId: c.eventId, created: true, subscriptionIds: c.subscriptionIds }));
}
