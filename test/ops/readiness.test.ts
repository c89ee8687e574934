/**
 * `hubwatch serve` in distributed mode as an operator's probes see it: `/readyz` answers 503 naming
 * PostgreSQL while it is stopped and Redis while that is, `/healthz` stays 200, and the process lives
 * on to answer 200 again once both are back. A private PostgreSQL cluster and a private redis-server on
 * free ports; the shared servers are never stopped.
 */
import { afterEach, describe, expect, it } from "vitest";
import { waitFor } from "../faults/harness.ts";
import { freePort, spawnHubwatch, startPgCluster, startRedis } from "../faults/processes.ts";

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
});

type Probe = { status: number; body: { ok?: boolean; down?: string[]; error?: string } };

async function probe(url: string): Promise<Probe> {
  const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
  return { status: res.status, body: (await res.json()) as Probe["body"] };
}

describe("readiness", () => {
  it("serve: /readyz is 503 naming PostgreSQL, then Redis, while each is down; 200 once back; the process lives on", async () => {
    const cluster = await startPgCluster(await freePort());
    cleanups.push(() => cluster.stop());
    const redis = await startRedis(await freePort());
    cleanups.push(() => redis.stop());
    const port = await freePort();
    const serve = spawnHubwatch("serve", { DATABASE_URL: cluster.url, REDIS_URL: redis.url }, [
      "--port",
      String(port),
    ]);
    cleanups.push(() => serve.kill("SIGKILL"));
    const base = `http://127.0.0.1:${port}`;
    const readyIs = (status: number) => async () =>
      (await probe(`${base}/readyz`).catch(() => null))?.status === status;
    await waitFor("serve ready", readyIs(200), 60_000);

    await cluster.halt();
    const pgDown = await probe(`${base}/readyz`);
    expect(pgDown.status).toBe(503);
    expect(pgDown.body.down).toEqual(["postgresql"]);
    expect(pgDown.body.error).toMatch(/^postgresql is down \(/);
    expect((await probe(`${base}/healthz`)).status).toBe(200);
    const query = JSON.stringify({ package: { purl: "pkg:huggingface/acme/model" } });
    expect((await fetch(`${base}/v1/query`, { method: "POST", body: query })).status).toBe(503);
    await cluster.resume();
    await waitFor("ready after PostgreSQL is back", readyIs(200), 30_000);

    await redis.stop();
    const redisDown = await probe(`${base}/readyz`);
    expect(redisDown.status).toBe(503);
    expect(redisDown.body.down).toEqual(["redis"]);
    await redis.start();
    await waitFor("ready after Redis is back", readyIs(200), 30_000);

    expect(serve.proc.exitCode).toBeNull();
    expect(serve.output()).not.toMatch(/Unhandled 'error' event|uncaught/i);
  }, 180_000);
});
