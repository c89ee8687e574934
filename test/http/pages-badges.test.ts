import { connect } from "node:net";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateEndpointBadge } from "../../src/core/badge/index.ts";
import { createApp } from "../../src/http/app.ts";
import { addRepo, getRepoByName, setRepoStatus } from "../../src/repositories/repos.repository.ts";
import { markForcePushedAway } from "../../src/repositories/revisions.repository.ts";
import { freshPgDatabase, type PgTestDatabase } from "../helpers/db.ts";
import { HOSTILE_TITLE, SHA, seedHistory } from "./seed.ts";

let db: PgTestDatabase;
let app: FastifyInstance;
const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: "GET", url, headers });

beforeAll(async () => {
  db = await freshPgDatabase();
  await seedHistory(db.db);
  app = await createApp({ db: db.db });
});
afterAll(async () => {
  await app?.close();
  await db?.close();
});

describe("badges", () => {
  it("serves shields endpoint JSON with ETag, Cache-Control and 304", async () => {
    const res = await get("/badges/acme/tiny-lm/params.json");
    expect(res.statusCode).toBe(200);
    const json = res.json();
    expect(validateEndpointBadge(json)).toMatchObject({ valid: true });
    expect(json).toMatchObject({ schemaVersion: 1, label: "params", color: "blue" });
    expect(res.headers["cache-control"]).toMatch(/max-age=\d+/);
    const etag = String(res.headers.etag);
    expect(etag).toMatch(/^"/);
    expect((await get("/badges/acme/tiny-lm/params.json", { "if-none-match": etag })).statusCode).toBe(304);
  });
  it("renders SVG with its own ETag", async () => {
    const res = await get("/badges/acme/tiny-lm/advisories.svg");
    expect(res.headers["content-type"]).toContain("image/svg+xml");
    expect(res.body).toContain("<svg");
    expect(res.headers.etag).not.toBe((await get("/badges/acme/tiny-lm/advisories.json")).headers.etag);
    expect(
      (await get("/badges/acme/tiny-lm/advisories.svg", { "if-none-match": String(res.headers.etag) }))
        .statusCode,
    ).toBe(304);
  });
  it("lets other sites read the JSON and honours shields' style, label and color on the SVG", async () => {
    const json = await get("/badges/acme/tiny-lm/params.json");
    expect(json.headers["access-control-allow-origin"]).toBe("*");
    const plain = (await get("/badges/acme/tiny-lm/params.svg")).body;
    const styled = await get("/badges/acme/tiny-lm/params.svg?style=for-the-badge&label=size&color=ff69b4");
    expect(styled.statusCode).toBe(200);
    expect(styled.body).not.toBe(plain);
    expect(styled.body).toContain("SIZE");
    expect(styled.body).toContain("#ff69b4");
    expect(styled.headers.etag).not.toBe((await get("/badges/acme/tiny-lm/params.svg")).headers.etag);
    // A bad style is ignored, as shields does.
    expect((await get("/badges/acme/tiny-lm/params.svg?style=%3Cx%3E")).body).toBe(plain);
  });
  it("says what is wrong: unknown metric, gated, not found", async () => {
    expect((await get("/badges/acme/tiny-lm/parms.json")).json()).toMatchObject({
      message: "unknown metric",
      color: "red",
    });
    expect((await get("/badges/acme/tiny-lm/fit-lora-no-such-card.json")).json().message).toBe(
      "unknown metric",
    );
    const { repo } = await addRepo(db.db, "acme/gated-lm");
    await setRepoStatus(db.db, repo.id, "gated", "Hub 401 for http://127.0.0.1:1/api/models/x: no");
    expect((await get("/badges/acme/gated-lm/params.json")).json().message).toBe("gated: needs HF_TOKEN");
    const page = await get("/repos/acme/gated-lm");
    expect(page.body).toContain("needs a token with access (HF_TOKEN)");
    expect(page.body).not.toContain("127.0.0.1");
    await setRepoStatus(db.db, repo.id, "not_found", "Hub 404 for http://127.0.0.1:1/x");
    expect((await get("/badges/acme/gated-lm/params.json")).json().message).toBe("repo not found");
  });
  it("lists every badge on the repo page with its endpoint URL and snippets", async () => {
    const body = (await get("/repos/acme/tiny-lm", { host: "hub.example" })).body;
    const shields = `https://img.shields.io/endpoint?url=${encodeURIComponent("http://hub.example/badges/acme/tiny-lm/params.json")}`;
    expect(body).toContain(shields.replaceAll("&", "&amp;"));
    expect(body).toContain(`[![params](${shields})](http://hub.example/repos/acme/tiny-lm)`);
    expect(body).toContain('<a href="http://hub.example/badges/acme/tiny-lm/advisories.json">');
    expect(body).toContain("&lt;img alt=&quot;params&quot;");
  });
  it("gives a grey badge for a repo that is not watched, never a 500", async () => {
    const res = await get("/badges/nobody/nothing/params.json");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: "not watched", color: "lightgrey" });
    expect(validateEndpointBadge(res.json()).valid).toBe(true);
    const svg = await get("/badges/nobody/nothing/fit-lora-a100-80-gb.svg");
    expect(svg.statusCode).toBe(200);
    expect((await get("/badges/acme/tiny-lm/no-such-metric.json")).json()).toMatchObject({
      message: "unknown metric",
    });
    expect((await get("/badges/acme/tiny-lm/..%2f..%2fx.json")).statusCode).toBe(400);
  });
});

describe("history pages", () => {
  it("lists watched repos and links to their history", async () => {
    const res = await get("/");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/html");
    expect(res.body).toContain('href="/repos/acme/tiny-lm"');
    expect(res.body).toContain('<link rel="stylesheet" href="/static/style.css">');
    expect(res.body).not.toContain("<script");
  });
  it("answers what changed recently across every repo, filterable by kind, and has a favicon", async () => {
    const all = (await get("/")).body;
    const recent = all.slice(all.indexOf('<ol class="recent">'), all.indexOf("</ol>"));
    // Newest first: D's config change (day 3) before the advisory closed at D, C's template, B's vocab growth.
    expect(recent.indexOf(`revisions/${SHA.D}`)).toBeLessThan(recent.indexOf(`revisions/${SHA.C}`));
    expect(recent).toContain("advisory closed");
    expect(recent).toContain("x_HUBWATCH-2026-0002");
    expect(recent).toContain(
      "rendered prompt changed: chat template &quot;&lt;svg onload=alert(1)&gt;&quot;",
    );
    const templates = (await get("/?kind=chat_template")).body;
    expect(templates).toContain(`revisions/${SHA.C}`);
    expect(templates).not.toContain(`<code>${SHA.B.slice(0, 7)}</code>`);
    expect(templates).toContain('aria-current="page"><strong>chat template</strong>');
    const adv = (await get("/?kind=advisory")).body;
    expect(adv).toContain("advisory opened");
    expect(adv).not.toContain('class="chip config"');
    expect((await get("/?kind=<x>")).statusCode).toBe(400);
    const icon = await get("/favicon.ico");
    expect(icon.statusCode).toBe(200);
    expect(icon.headers["content-type"]).toContain("image/svg+xml");
    expect(all).toContain('<link rel="icon" href="/favicon.svg"');
  });
  it("shows a repo timeline with changes, estimate comparison and advisories, all escaped", async () => {
    const res = await get("/repos/acme/tiny-lm");
    expect(res.statusCode).toBe(200);
    const body = res.body;
    expect(body).toContain("x_HUBWATCH-2026-0001");
    expect(body).toContain(`href="/repos/acme/tiny-lm/revisions/${SHA.B}"`);
    expect(body).toContain("vocab_size 151936 -&gt; 200000");
    expect(body).toContain('class="num changed"'); // params changed between A and B
    expect(body).not.toContain("<script>document.title");
    expect(body).toContain(
      "Update template &lt;script&gt;document.title=&quot;pwned&quot;&lt;/script&gt; &amp; &quot;quotes&quot;",
    );
    expect(body).toContain("&lt;b&gt;mallory&lt;/b&gt;");
    expect(HOSTILE_TITLE).toContain("<script>");
  });
  it("shows a revision's full diffs with hostile template content as text", async () => {
    const res = await get(`/repos/acme/tiny-lm/revisions/${SHA.C}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toMatch(/<script>window\.pwned/);
    expect(res.body).not.toMatch(/<img src=x/);
    expect(res.body).toContain("&lt;script&gt;window.pwned=1&lt;/script&gt;");
    expect(res.body).toMatch(
      /Rendered prompts: <span class="bad">rendered prompt changed in \d+ of \d+ scenarios/,
    );
    expect(res.body).toContain(
      '<h2>Behaviour</h2><ul class="behavior"><li><span class="chip">prompt</span> rendered prompt changed: chat template &quot;&lt;svg onload=alert(1)&gt;&quot; added</li></ul>',
    );
    // What changed comes first: the callout, then Changes, then the estimate delta.
    const callout = res.body.indexOf('<aside class="callout"');
    expect(callout).toBeGreaterThan(0);
    expect(res.body.slice(callout)).toMatch(/The rendered prompt changes:<\/strong> rendered prompt changed/);
    expect(res.body.indexOf("<h2>Changes</h2>")).toBeGreaterThan(callout);
    expect(res.body.indexOf("<h2>Estimate")).toBeGreaterThan(res.body.indexOf("<h2>Changes</h2>"));
    expect(res.body).not.toContain("=====");
    expect(res.body).toContain('<tr class="changed-line">');
    const json = await get(`/repos/acme/tiny-lm/revisions/${SHA.B}`);
    expect(json.body).not.toContain('<aside class="callout"');
    expect(json.body).toContain("<code>$.vocab_size</code>");
    expect(json.body).toContain("lm_head.weight");
  });
  it("refuses traversal and bad names, 404s unknown repos", async () => {
    // Sent raw on a socket: URL parsers (inject's, browsers') would resolve dot segments before sending.
    const address = await app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = new URL(address);
    for (const path of [
      "/repos/../etc",
      "/repos/%2e%2e/%2e%2e",
      "/repos/acme/..",
      "/repos/acme/%2e%2e",
      "/repos/a%2fb/c",
      "/repos/acme/tiny-lm%00",
      `/repos/%2E%2E/passwd/revisions/${SHA.A}`,
      "/badges/%2e%2e/x/params.json",
    ]) {
      expect([400, 404], path).toContain(await rawStatus(Number(port), path));
    }
    const unwatched = await get("/repos/nobody/nothing");
    expect(unwatched.statusCode).toBe(404);
    expect(unwatched.body).toContain("hubwatch watch add nobody/nothing");
    expect((await get("/repos/acme/tiny-lm/revisions/zzz")).statusCode).toBe(404);
    expect((await get(`/repos/acme/tiny-lm/revisions/${SHA.E}`)).statusCode).toBe(404);
  });
});

describe("states", () => {
  it("says when a revision was force-pushed away, and names statuses in words on the index", async () => {
    const repo = await getRepoByName(db.db, "acme/tiny-lm");
    await markForcePushedAway(db.db, repo?.id ?? 0, [SHA.D]);
    const page = (await get(`/repos/acme/tiny-lm/revisions/${SHA.D}`)).body;
    expect(page).toContain("<strong>Force-pushed away:</strong>");
    expect((await get(`/repos/acme/tiny-lm`)).body).toContain('<g class="marker force_push">');
    expect((await get("/")).body).toMatch(
      /<td>(gated: needs a token with access \(HF_TOKEN\)|not found on the Hub)<\/td>/,
    );
  });
});

/** Status code of a GET sent byte for byte, without any client-side path normalisation. */
function rawStatus(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const sock = connect(port, "127.0.0.1", () =>
      sock.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
    );
    let data = "";
    sock.on("data", (d) => {
      data += d.toString("latin1");
    });
    sock.on("end", () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0)));
    sock.on("error", reject);
  });
}
