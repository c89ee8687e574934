/**
 * LISTEN on a channel, for either driver. node-postgres: a dedicated client outside the pool (a pooled client
 * cannot hold a LISTEN), reconnecting with backoff after the server restarts; the loss and the return of the
 * connection are reported (`onLost`, `onRestored`) because notifications sent meanwhile are gone. PGlite: its
 * own listen(), in process, never lost.
 */
import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";

export type ListenHandlers = { onNotify(payload: string): void; onLost(): void; onRestored(): void };
export type Listen = (channel: string, h: ListenHandlers) => Promise<() => Promise<void>>;

export function pgliteListen(client: PGlite): Listen {
  return async (channel, h) => client.listen(channel, (payload) => h.onNotify(payload));
}

export function pgListen(connectionString: string): Listen {
  return async (channel, h) => {
    let stopped = false;
    let client: pg.Client | null = null;
    let delay = 250;
    const schedule = () => {
      setTimeout(() => void retry(), delay).unref();
      delay = Math.min(delay * 2, 10_000);
    };
    const connect = async (): Promise<void> => {
      const c = new pg.Client({ connectionString });
      c.on("notification", (m) => h.onNotify(m.payload ?? ""));
      // Errors before LISTEN succeeded are the caller's (connect throws); after, the connection is lost.
      const lost = () => {
        if (client !== c || stopped) return;
        client = null;
        h.onLost();
        schedule();
      };
      c.on("error", lost);
      c.on("end", lost);
      try {
        await c.connect();
        await c.query(`LISTEN "${channel.replaceAll('"', "")}"`);
      } catch (err) {
        c.end().catch(() => {});
        throw err;
      }
      client = c;
      delay = 250;
    };
    const retry = async () => {
      if (stopped) return;
      try {
        await connect();
        h.onRestored();
      } catch {
        schedule();
      }
    };
    await connect();
    return async () => {
      stopped = true;
      await client?.end().catch(() => {});
    };
  };
}
