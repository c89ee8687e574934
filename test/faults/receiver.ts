/**
 * A webhook receiver as a careful subscriber writes one: verifies every request with `standardwebhooks`
 * and acts once per `webhook-id` (later copies are acknowledged and counted as duplicates). Its behaviour
 * is switchable: answer 200, fail with 503, or hang (never answer, so the sender's timeout ends it).
 */
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export type Mode = "ok" | "fail" | "hang";

export type Receiver = {
  url: string;
  mode: Mode;
  secret: string;
  /** Event ids acted on, in order, each once. */
  acted: string[];
  /** Copies of an event already acted on (acknowledged, not acted on). */
  duplicates: number;
  /** Requests whose signature did not verify. */
  unverified: number;
  /** Per acted event: ms from the event's `timestamp` to its arrival. */
  lagMs: number[];
  close(): Promise<void>;
};

export async function startReceiver(mode: Mode = "ok", slowMs = 0): Promise<Receiver> {
  const hanging: ServerResponse[] = [];
  const r: Receiver = {
    url: "",
    mode,
    secret: "",
    acted: [],
    duplicates: 0,
    unverified: 0,
    lagMs: [],
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    },
  };
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      if (r.mode === "hang") return void hanging.push(res);
      if (r.mode === "fail") return void res.writeHead(503).end();
      try {
        new Webhook(r.secret).verify(body, req.headers as Record<string, string>);
      } catch {
        r.unverified++;
        return void res.writeHead(400).end();
      }
      const id = String(req.headers["webhook-id"]);
      if (r.acted.includes(id)) r.duplicates++;
      else {
        r.acted.push(id);
        r.lagMs.push(Date.now() - Date.parse(JSON.parse(body).timestamp));
      }
      setTimeout(() => res.writeHead(200).end(), slowMs);
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return r;
}

/** The p-th percentile (0..100) of `values`, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
