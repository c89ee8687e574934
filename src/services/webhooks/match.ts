/** What a subscription filters on, and what an event offers to be filtered by. */
type SubscriptionFilter = {
  events: readonly string[];
  repoFilter: string | null;
  kinds: string[] | null;
};
type EventFacts = { type: string; repo: string | null; kinds: readonly string[] };

/**
 * A subscription's repo filter: null or "*" = every repo; otherwise a repo name in which `*` matches
 * any run of characters ("owner/*", "Qwen/Qwen3-*"). Compared case-insensitively, as the Hub does.
 */
export function repoFilterMatches(filter: string | null, repoName: string | null): boolean {
  if (!filter || filter === "*") return true;
  if (!repoName) return false;
  const parts = filter
    .toLowerCase()
    .split("*")
    .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${parts.join(".*")}$`).test(repoName.toLowerCase());
}

/** Whether an event goes to a subscription: its type, its repo, and (when the subscription names kinds) one of its change kinds. */
export function subscriptionWants(sub: SubscriptionFilter, event: EventFacts): boolean {
  if (!sub.events.includes(event.type)) return false;
  if (!repoFilterMatches(sub.repoFilter, event.repo)) return false;
  if (!sub.kinds || sub.kinds.length === 0) return true;
  return event.kinds.some((k) => sub.kinds?.includes(k));
}
