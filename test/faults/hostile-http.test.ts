/**
 * Hostile input at the HTTP layer, covering what test/http/ does not (see docs/RELIABILITY.md):
 * markup in every upstream field, carried through the real pipeline into the pages and the Atom feed;
 * SQL-looking repo names and purls on every read route and the write API; malformed bearer tokens;
 * oversized and absurdly nested bodies on the public OSV routes; webhook targets spelled as loopback or
 * private addresses in the forms URL parsers accept (decimal, hex, short, IPv4-mapped IPv6, trailing dot)
 * and non-HTTP schemes.
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app.ts";
import { json, realConfig, weights } from "../../src/replay-hub/fixtures/builder.ts";
import { makeTokenizer, type RepoSpec } from "../../src/replay-hub/index.ts";
import { createToken } from "../../src/services/http/tokens.ts";
import { healthyRepos, type Pipeline, startPipeline } from "./harness.ts";
import { HOSTILE_REPO, hostileRepo, PAYLOADS } from "./hostile-repo.ts";

let p: Pipeline;
let app: FastifyInstance;
let token: string;

beforeAll(async () => {
  p = await startPipeline({ repos: [hostileRepo(), tokensRepo(), ...healthyRepos(1)] });
  await p.cycle();
  app = await createApp({ db: p.db.db, rateLimit: false });
  token = (await createToken(p.db.db, "hostile-tests")).token;
}, 60_000);
afterAll(async () => {
  await app?.close();
  await p?.close();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: "GET", url, headers });
// The pages' own markup has no script, svg or iframe; its only images are the repo's badges.
// Our own markup that these tags may legitimately start: badge images and the history charts' SVG.
const RAW_TAGS =
  /<(script|iframe|object|embed)\b|<svg\b(?! viewBox="0 0 \d+ \d+" role="group" aria-label="[^"<>]*" preserveAspectRatio="xMidYMid meet">)|<img\b(?! alt="[^"<>]*" src="\/badges\/[^"<>]*">)/i;

/** Every HTML page a visitor can reach for the hostile repo, with its body. */
async function hostilePages(): Promise<{ url: string; body: string; type: string }[]> {
  const shas = p.hub.history(HOSTILE_REPO).map((c) => c.sha);
  const urls = [
    "/",
    `/repos/${HOSTILE_REPO}`,
    ...shas.map((s) => `/repos/${HOSTILE_REPO}/revisions/${s}`),
    "/osv/feed.atom",
  ];
  const out = [];
  for (const url of urls) {
    const res = await get(url);
    expect(res.statusCode, url).toBe(200);
    out.push({ url, body: res.body, type: String(res.headers["content-type"]) });
  }
  return out;
}

describe("markup from upstream, through the pipeline, into pages", () => {
  it("the pipeline processed the hostile repo (so its fields are there to be shown)", async () => {
    const { rows } = await p.sql.query(
      `select r.status from revisions r join repos o on o.id = r.repo_id where o.name = $1 order by r.seq`,
      [HOSTILE_REPO],
    );
    expect(rows.map((r) => r.status)).toEqual(["done", "done", "done"]);
    const tokens = await p.sql.query(
      `select r.status from revisions r join repos o on o.id = r.repo_id where o.name = $1 order by r.seq`,
      [TOKENS_REPO],
    );
    expect(tokens.rows.map((r) => r.status)).toEqual(["done", "done", "done"]);
  });

  it("no page or feed carries a live tag from any field; the fields are shown, escaped", async () => {
    const pages = await hostilePages();
    for (const page of pages) {
      const raw = RAW_TAGS.exec(page.body);
      expect(
        raw ? page.body.slice(Math.max(0, raw.index - 120), raw.index + 120) : null,
        page.url,
      ).toBeNull();
      // No real tag (escaped text has no "<") carries an event handler: no attribute breakout.
      const handlers = (page.body.match(/<[a-zA-Z][^<>]*>/g) ?? []).filter((t) => /\son[a-z]+\s*=/i.test(t));
      expect(handlers, page.url).toEqual([]);
    }
    const all = pages.map((x) => x.body).join("\n");
    const label = (payload: string) => /xss-[a-z-]+/.exec(payload)![0];
    // Shown (as text) somewhere: the fields the pages promise to show.
    const shown = Object.entries(PAYLOADS)
      .filter(([, v]) => all.includes(label(v)))
      .map(([k]) => k);
    expect(shown).toEqual(
      expect.arrayContaining([
        "title",
        "author",
        "configValue",
        "configValueAfter",
        "configKey",
        "generation",
        "template",
        "templatePath",
        "metadata",
      ]),
    );
    // Shown escaped: the escaped opening of each shown payload is present.
    expect(all).toContain("&lt;script&gt;alert(");
  });

  it("hostile added tokens and safetensors metadata are shown on the revision page as text, never as tags", async () => {
    const sha = p.hub.history(TOKENS_REPO).at(-1)!.sha;
    const res = await get(`/repos/${TOKENS_REPO}/revisions/${sha}`);
    expect(res.statusCode).toBe(200);
    const body = res.body;
    const raw = RAW_TAGS.exec(body);
    expect(raw ? body.slice(Math.max(0, raw.index - 120), raw.index + 120) : null).toBeNull();
    expect((body.match(/<[a-zA-Z][^<>]*>/g) ?? []).filter((t) => /\son[a-z]+\s*=/i.test(t))).toEqual([]);
    // Tokens are shown as JSON strings (quotes and whitespace spelled out), escaped: the changed and the
    // added token, with the one it replaced.
    expect(body).toContain(`&lt;script&gt;alert(\\&quot;xss-added-token\\&quot;)&lt;/script&gt;`);
    expect(body).toContain(`&quot;&lt;img src=x onerror=alert(\\&quot;xss-token-img\\&quot;)&gt;\\n&quot;`);
    expect(body).toContain(`&quot;&lt;|b|&gt;&quot;`);
    // Metadata values, and a hostile metadata key, before and after.
    expect(body).toContain(`&lt;img src=x onerror=alert(&quot;xss-meta-img&quot;)&gt;`);
    expect(body).toContain(`&lt;/td&gt;&lt;script&gt;alert(&quot;xss-meta-script&quot;)&lt;/script&gt;`);
    expect(body).toContain(`&lt;svg onload=alert(&quot;xss-meta-key&quot;)&gt;`);
    expect(body).toContain("safetensors-0.5.2");
  });

  it("badge JSON for the hostile repo is JSON, not HTML", async () => {
    const res = await get(`/badges/${HOSTILE_REPO}/params.json`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("application/json");
    expect(res.headers["x-content-type-options"] ?? "nosniff").toBe("nosniff");
  });
});

const SQLISH = [
  `x';drop table repos;--/y`,
  `a' or '1'='1/b`,
  `%27%20OR%201%3D1--/x`,
  `a/b' union select * from api_tokens--`,
  `_/_`,
  `*/*`,
];

describe("SQL-looking repo names", () => {
  it("read routes answer 400/404 (or a grey badge), never 500, and leak nothing", async () => {
    for (const name of SQLISH) {
      const enc = name.split("/").map(encodeURIComponent).join("/");
      for (const url of [`/repos/${enc}`, `/repos/${enc}/revisions/${"a".repeat(40)}`]) {
        expect([400, 404], url).toContain((await get(url)).statusCode);
      }
      const badge = await get(`/badges/${enc}/params.json`);
      expect([200, 400, 404], name).toContain(badge.statusCode);
      if (badge.statusCode === 200) expect(badge.json().color).toMatch(/grey|lightgrey|inactive/);
    }
    const { rows } = await p.sql.query("select count(*)::int as n from repos");
    expect(rows[0].n).toBe(3);
  });

  it("OSV queries with SQL-looking or wildcard purls and names return nothing, not every advisory", async () => {
    const { rows } = await p.sql.query("select count(*)::int as n from advisories");
    expect(rows[0].n).toBeGreaterThan(0); // there is something to leak
    for (const name of SQLISH) {
      for (const body of [
        { package: { purl: `pkg:huggingface/${name}` } },
        { package: { ecosystem: "GIT", name: `https://huggingface.co/${name}` } },
      ]) {
        const res = await app.inject({ method: "POST", url: "/v1/query", payload: body });
        expect([200, 400], JSON.stringify(body)).toContain(res.statusCode);
        if (res.statusCode === 200) expect(res.json()).toEqual({});
      }
    }
  });

  // Was a 500 (decodeURIComponent threw in parse-osv-query.ts); malformed escapes are the caller's 400.
  it("a purl with malformed percent-encoding (%/%) is a 400, not a 500", async () => {
    for (const purl of ["pkg:huggingface/%/%", "pkg:huggingface/a/b@%zz"]) {
      const res = await app.inject({ method: "POST", url: "/v1/query", payload: { package: { purl } } });
      expect(res.statusCode, purl).toBe(400);
    }
  });

  it("the write API refuses them as repo ids", async () => {
    for (const repo of [...SQLISH, "%/%"]) {
      const res = await app.inject({
        method: "POST",
        url: "/api/repos",
        headers: { authorization: `Bearer ${token}` },
        payload: { repo },
      });
      expect(res.statusCode, repo).toBe(400);
    }
    const { rows } = await p.sql.query("select count(*)::int as n from repos");
    expect(rows[0].n).toBe(3);
  });
});

describe("bad tokens", () => {
  it.each([
    ["no header", undefined],
    ["empty bearer", "Bearer "],
    ["wrong scheme", `Basic ${Buffer.from("admin:admin").toString("base64")}`],
    ["token without scheme", "hw_0000"],
    ["unknown token", `Bearer hw_${"0".repeat(43)}`],
    ["valid token with a suffix", "SUFFIX"],
    ["SQL in the token", `Bearer ' or '1'='1`],
    ["8 kB token", `Bearer hw_${"x".repeat(8000)}`],
  ])("%s: 401, nothing written", async (_label, header) => {
    const authorization = header === "SUFFIX" ? `Bearer ${token}x` : header;
    const res = await app.inject({
      method: "POST",
      url: "/api/repos",
      headers: authorization === undefined ? {} : { authorization },
      payload: { repo: "someone/new-model" },
    });
    expect(res.statusCode).toBe(401);
    const { rows } = await p.sql.query(
      "select count(*)::int as n from repos where name = 'someone/new-model'",
    );
    expect(rows[0].n).toBe(0);
  });
});

describe("oversized and nested bodies on public routes", () => {
  it("a 5 MB /v1/query body is refused with 413", async () => {
    const payload = JSON.stringify({
      package: { purl: `pkg:huggingface/a/b` },
      pad: "x".repeat(5 * 2 ** 20),
    });
    const res = await app.inject({
      method: "POST",
      url: "/v1/query",
      payload,
      headers: { "content-type": "application/json" },
    });
    expect(res.statusCode).toBe(413);
  });

  it("a /v1/querybatch with 100,000 queries is refused (413 or 400), not processed", async () => {
    const queries = Array.from({ length: 100_000 }, () => ({ package: { purl: "pkg:huggingface/a/b" } }));
    const res = await app.inject({ method: "POST", url: "/v1/querybatch", payload: { queries } });
    expect([400, 413]).toContain(res.statusCode);
  });

  it("a JSON body nested 50,000 levels deep gets a 4xx and the server keeps answering", async () => {
    const depth = 50_000;
    const payload = `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
    for (const url of ["/v1/query", "/v1/querybatch"]) {
      const res = await app.inject({
        method: "POST",
        url,
        payload,
        headers: { "content-type": "application/json" },
      });
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
    }
    expect((await get("/")).statusCode).toBe(200);
  });
});

describe("webhook targets on private addresses, however spelled", () => {
  it.each([
    "http://2130706433/hook",
    "http://0x7f000001/hook",
    "http://0177.0.0.1/hook",
    "http://127.1/hook",
    "http://0.0.0.0/hook",
    "http://[::ffff:127.0.0.1]/hook",
    "http://[::ffff:7f00:1]/hook",
    "http://[::]/hook",
    "http://[fe80::1]/hook",
    "http://[fd00::1]/hook",
    "http://100.64.0.1/hook",
    "http://169.254.169.254/latest/meta-data/",
    "http://localhost./hook",
    "http://LOCALHOST/hook",
    "http://user:pass@127.0.0.1:8080/hook",
    "file:///etc/passwd",
    "gopher://127.0.0.1:6379/_FLUSHALL",
    "ftp://example.com/x",
    "javascript:alert(1)",
  ])("%s is refused when the subscription is created", async (url) => {
    const res = await app.inject({
      method: "POST",
      url: "/api/subscriptions",
      headers: { authorization: `Bearer ${token}` },
      payload: { url },
    });
    expect(res.statusCode).toBe(400);
    const { rows } = await p.sql.query("select count(*)::int as n from webhook_subscriptions");
    expect(rows[0].n).toBe(0);
  });
});

const TOKENS_REPO = "evil-org/xss-tokens";

/** A tokenizer.json whose added tokens change to markup, and weights whose __metadata__ does. */
function tokensRepo(): RepoSpec {
  const { config } = realConfig("Qwen__Qwen3-0.6B");
  const at = (h: number) => new Date(Date.UTC(2025, 6, 2, h)).toISOString();
  const tokenizer = (added: string[]) => json(makeTokenizer({ vocabSize: 300, addedTokens: added }));
  const hostileMeta = {
    exporter: `</td><script>alert("xss-meta-script")</script>`,
    note: `<img src=x onerror=alert("xss-meta-img")>`,
    '<svg onload=alert("xss-meta-key")>': "1",
  };
  return {
    id: TOKENS_REPO,
    commits: [
      { title: "initial commit", date: at(0), changes: { ".gitattributes": json({}) } },
      {
        title: "add weights and tokenizer",
        date: at(1),
        changes: {
          "config.json": json(config),
          ...weights(config, { metadata: { exporter: "safetensors-0.5.2" } }),
          "tokenizer.json": tokenizer(["<|a|>", "<|b|>"]),
        },
      },
      {
        title: "hostile tokens and metadata",
        date: at(2),
        changes: {
          ...weights(config, { metadata: hostileMeta }),
          "tokenizer.json": tokenizer([
            "<|a|>",
            `<script>alert("xss-added-token")</script>`,
            `<img src=x onerror=alert("xss-token-img")>\n`,
          ]),
        },
      },
    ],
  };
}
