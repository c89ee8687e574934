// One replay hub per test file: started before the file's tests, closed after, log and faults cleared before each.
import { afterAll, beforeAll, beforeEach } from "vitest";
import { type ReplayHub, startReplayHub } from "../../src/replay-hub/index.ts";

/**
 * Registers the hooks and returns the hub. The value is a stand-in that forwards to the started hub, so a
 * file can write `const hub = useReplayHub()` at top level and use `hub.url` inside its tests.
 */
export function useReplayHub(setup?: (hub: ReplayHub) => void): ReplayHub {
  let started: ReplayHub | undefined;
  beforeAll(async () => {
    started = await startReplayHub();
    setup?.(started);
  });
  afterAll(() => started?.close());
  beforeEach(() => {
    started?.clearLog();
    started?.clearFaults();
  });
  return new Proxy({} as ReplayHub, {
    get(_, key) {
      if (!started) throw new Error("the replay hub is used before beforeAll started it");
      const value = Reflect.get(started, key);
      return typeof value === "function" ? value.bind(started) : value;
    },
  });
}
