/**
 * The store generation: a number that moves whenever a table public responses read from changes (the
 * triggers of migration 0003 NOTIFY channel hubwatch_store on commit). Serve processes key their response
 * caches on it, so in distributed mode every process drops stale answers as soon as any worker commits.
 * `current()` is null while the listener is down (reconnecting): callers must not cache then.
 */
import type { Listen } from "./listen.ts";

const STORE_CHANNEL = "hubwatch_store";

export type StoreGeneration = { current(): number | null; stop(): Promise<void> };

export async function watchStoreChanges(listen: Listen): Promise<StoreGeneration> {
  let generation = 0;
  let live = true;
  const stop = await listen(STORE_CHANNEL, {
    onNotify: () => {
      generation++;
    },
    onLost: () => {
      live = false;
    },
    onRestored: () => {
      generation++; // what changed while the listener was away is unknown: start over
      live = true;
    },
  });
  return { current: () => (live ? generation : null), stop };
}
