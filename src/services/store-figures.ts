import type { Executor } from "../db/types.ts";
import { countAdvisoriesByStatus } from "../repositories/advisories-feed.repository.ts";
import { type RevisionFigures, revisionFigures } from "../repositories/revisions-status.repository.ts";
import { type DeliveryFigures, deliveryFigures } from "../repositories/webhook-deliveries-read.repository.ts";

/**
 * What an operator asks the store (for /metrics): how many revisions are done, pending and failed, how
 * many advisories are open, and how the webhook outbox stands.
 */
export type StoreFigures = RevisionFigures &
  DeliveryFigures & {
    advisories: Record<"open" | "closed", number>;
  };

export async function storeFigures(ex: Executor): Promise<StoreFigures> {
  const revisions = await revisionFigures(ex);
  const advisories = await countAdvisoriesByStatus(ex);
  const deliveries = await deliveryFigures(ex);
  return { ...revisions, advisories, ...deliveries };
}
