import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { sendWebhook } from "../../src/services/webhooks/send.ts";

// The sender's limits against real sockets: timeout, no redirects, capped body, Retry-After, SSRF.
const servers: Server[] = [];
async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const s = createServer(handler);
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}/`;
}
afterAll(() => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
});
const base = { headers: {}, body: "{}", allowPrivateTargets: true };

describe("sendWebhook", () => {
  it("gives up after the timeout", async () => {
    const url = await serve(() => {}); // never answers
    const r = await sendWebhook({ ...base, url, timeoutMs: 300 });
    expect(r.status).toBeNull();
    expect(r.error).toMatch(/timeout/);
    expect(r.durationMs).toBeLessThan(2_000);
  });
  it("does not follow redirects", async () => {
    let hits = 0;
    const target = await serve((_q, res) => {
      hits++;
      res.end("ok");
    });
    const url = await serve((_q, res) => res.writeHead(302, { location: target }).end());
    const r = await sendWebhook({ ...base, url });
    expect(r.status).toBe(302);
    expect(hits).toBe(0);
  });
  it("caps the response body and reads Retry-After", async () => {
    const url = await serve((_q, res) =>
      res.writeHead(429, { "retry-after": "120" }).end("y".repeat(100_000)),
    );
    const r = await sendWebhook({ ...base, url, maxResponseBytes: 4096 });
    expect(r.status).toBe(429);
    expect(r.responseBody.length).toBe(4096);
    expect(r.retryAfterS).toBe(120);
  });
  it("refuses private targets unless allowed, before connecting", async () => {
    let hits = 0;
    const url = await serve((_q, res) => {
      hits++;
      res.end();
    });
    const r = await sendWebhook({
      ...base,
      url: url.replace("127.0.0.1", "localhost"),
      allowPrivateTargets: false,
    });
    expect(r).toMatchObject({ status: null, blocked: true });
    expect(r.error).toMatch(/non-public address/);
    expect(hits).toBe(0);
  });
});
