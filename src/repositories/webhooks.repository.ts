import { createHash } from "node:crypto";
import { and, asc, eq, isNull, or, sql } from "drizzle-orm";
import { type WebhookEventType, webhookEvents, webhookSubscriptions } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";
import { queryRows } from "./raw.ts";

export type WebhookSubscription = typeof webhookSubscriptions.$inferSelect;
type WebhookEvent = typeof webhookEvents.$inferSelect;
type NewSubscription = {
  url: string;
  /** 'whsec_' + base64, as Standard Webhooks expects. */
  secret: string;
  repoFilter?: string | null;
  events: WebhookEventType[];
  kinds?: string[] | null;
};

export async function createSubscription(ex: Executor, s: NewSubscription): Promise<WebhookSubscription> {
  const [row] = await ex
    .insert(webhookSubscriptions)
    .values({ ...s, repoFilter: s.repoFilter ?? null, kinds: s.kinds ?? null })
    .returning();
  return row!;
}

export async function getSubscription(ex: Executor, id: number): Promise<WebhookSubscription | null> {
  const [row] = await ex.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, id));
  return row ?? null;
}

export function listSubscriptions(
  ex: Executor,
  opts: { enabledOnly?: boolean } = {},
): Promise<WebhookSubscription[]> {
  return ex
    .select()
    .from(webhookSubscriptions)
    .where(opts.enabledOnly ? eq(webhookSubscriptions.enabled, true) : undefined)
    .orderBy(asc(webhookSubscriptions.id));
}

/** Enabled subscriptions that want `type` for `repoName` (filter null, exact name, or 'owner/*'). */
export function listSubscriptionsFor(
  ex: Executor,
  repoName: string,
  type: WebhookEventType,
): Promise<WebhookSubscription[]> {
  const owner = repoName.split("/")[0] ?? repoName;
  return ex
    .select()
    .from(webhookSubscriptions)
    .where(
      and(
        eq(webhookSubscriptions.enabled, true),
        sql`${type} = any(${webhookSubscriptions.events})`,
        or(
          isNull(webhookSubscriptions.repoFilter),
          eq(webhookSubscriptions.repoFilter, repoName),
          eq(webhookSubscriptions.repoFilter, `${owner}/*`),
        ),
      ),
    )
    .orderBy(asc(webhookSubscriptions.id));
}

type SubscriptionPatch = Partial<
  Pick<
    WebhookSubscription,
    | "url"
    | "secret"
    | "repoFilter"
    | "events"
    | "enabled"
    | "disabledReason"
    | "previousSecret"
    | "previousSecretExpiresAt"
  >
>;

export async function updateSubscription(
  ex: Executor,
  id: number,
  patch: SubscriptionPatch,
): Promise<WebhookSubscription | null> {
  if (Object.keys(patch).length === 0) return getSubscription(ex, id);
  const [row] = await ex
    .update(webhookSubscriptions)
    .set(patch)
    .where(eq(webhookSubscriptions.id, id))
    .returning();
  return row ?? null;
}

/** Stops deliveries to a subscription, saying why (e.g. too many failures). */
export function disableSubscription(
  ex: Executor,
  id: number,
  reason: string,
): Promise<WebhookSubscription | null> {
  return updateSubscription(ex, id, { enabled: false, disabledReason: reason });
}

export function enableSubscription(ex: Executor, id: number): Promise<WebhookSubscription | null> {
  return updateSubscription(ex, id, { enabled: true, disabledReason: null });
}

/** Deletes a subscription with its deliveries and attempts; false if there was none. */
export async function deleteSubscription(ex: Executor, id: number): Promise<boolean> {
  const rows = await ex
    .delete(webhookSubscriptions)
    .where(eq(webhookSubscriptions.id, id))
    .returning({ id: webhookSubscriptions.id });
  return rows.length > 0;
}

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
