/**
 * Per-process response cache for the public read routes (OSV API, feed, badges, pages), keyed on the store
 * generation (src/db/store-changes.ts): an entry computed at generation g is served while the store is still
 * at g, so a commit anywhere (any worker, any process) makes every serve process recompute. Without a
 * generation (tests, or the listener reconnecting) nothing is cached. Errors are never cached.
 */
export type ResponseCache = <T>(key: string, compute: () => Promise<T>) => Promise<T>;

const DEFAULT_MAX_ENTRIES = 5_000;

export function createResponseCache(
  generation: (() => number | null) | undefined,
  maxEntries = DEFAULT_MAX_ENTRIES,
): ResponseCache {
  const entries = new Map<string, { generation: number; value: unknown }>();
  return async <T>(key: string, compute: () => Promise<T>): Promise<T> => {
    const at = generation?.() ?? null;
    if (at === null) return compute();
    const hit = entries.get(key);
    if (hit && hit.generation === at) return hit.value as T;
    const value = await compute();
    if (entries.size >= maxEntries) {
      // Drop the oldest entry (a Map keeps insertion order): bounded memory under key churn.
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) entries.delete(oldest);
    }
    entries.delete(key);
    entries.set(key, { generation: at, value });
    return value;
  };
}
