import { and, asc, eq, isNull, or, sql } from "drizzle-orm";
import { type WebhookEventType, webhookSubscriptions } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";

// Webhook subscriptions: who receives which events; events are in webhook-events.repository.ts.

export type WebhookSubscription = typeof webhookSubscriptions.$inferSelect;
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
