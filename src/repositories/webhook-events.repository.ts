import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { type WebhookEventType, webhookEvents } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";
import { queryRows } from "./raw.ts";

// Webhook events, stored once by a deterministic id, with the deliveries they fan out to.

type WebhookEvent = typeof webhookEvents.$inferSelect;

/** Deterministic event id: the same kind and subject (e.g. advisory id + modified) give the same id. */
export function makeEventId(type: WebhookEventType, subject: string): string {
  return `evt_${createHash("sha256").update(`${type}\n${subject}`).digest("hex").slice(0, 32)}`;
}

type NewWebhookEvent = {
  id: string;
  type: WebhookEventType;
  repoId?: number | null;
  payload: Record<string, unknown>;
};

/** Stores an event once by id; a repeat returns the stored one with created: false. */
export async function insertEvent(
  ex: Executor,
  e: NewWebhookEvent,
): Promise<{ event: WebhookEvent; created: boolean }> {
  const [row] = await ex
    .insert(webhookEvents)
    .values({ ...e, repoId: e.repoId ?? null })
    .onConflictDoNothing({ target: webhookEvents.id })
    .returning();
  if (row) return { event: row, created: true };
  return { event: (await getEvent(ex, e.id))!, created: false };
}

/**
 * Stores events and their deliveries in one statement: each event once by id (a repeat is left as it
 * is), and a pending delivery for each (subscriptionId, eventId) of `deliveries` whose event this call
 * created. Returns, in the order given, the events created with the subscriptions a delivery was created for.
 */
export async function insertEventsWithDeliveries(
  ex: Executor,
  events: NewWebhookEvent[],
  deliveries: { subscriptionId: number; eventId: string }[],
): Promise<{ eventId: string; subscriptionIds: number[] }[]> {
  if (events.length === 0) return [];
  const eventRows = events.map(
    (e) => sql`(${e.id}, ${e.type}, ${e.repoId ?? null}::int, ${JSON.stringify(e.payload)}::jsonb)`,
  );
  const deliveryRows = deliveries.map((d) => sql`(${d.subscriptionId}::int, ${d.eventId})`);
  const rows = await queryRows<{ event_id: string; subscription_id: number | null }>(
    ex,
    sql`with created as (
        insert into webhook_events (id, type, repo_id, payload) values ${sql.join(eventRows, sql`, `)}
        on conflict (id) do nothing returning id
      ), delivered as (
        insert into webhook_deliveries (subscription_id, event_id)
        select d.subscription_id, d.event_id
        from (values ${deliveryRows.length > 0 ? sql.join(deliveryRows, sql`, `) : sql`(null::int, null::text)`})
          as d(subscription_id, event_id)
        join created on created.id = d.event_id
        on conflict do nothing returning subscription_id, event_id
      )
      select created.id as event_id, delivered.subscription_id
      from created left join delivered on delivered.event_id = created.id`,
  );
  const byEvent = new Map<string, number[]>();
  for (const r of rows) {
    const subs = byEvent.get(r.event_id) ?? [];
    if (r.subscription_id !== null) subs.push(r.subscription_id);
    byEvent.set(r.event_id, subs);
  }
  return events.flatMap((e) => {
    const subs = byEvent.get(e.id);
    return subs ? [{ eventId: e.id, subscriptionIds: subs.sort((a, b) => a - b) }] : [];
  });
}

export async function getEvent(ex: Executor, id: string): Promise<WebhookEvent | null> {
  const [row] = await ex.select().from(webhookEvents).where(eq(webhookEvents.id, id));
  return row ?? null;
}
