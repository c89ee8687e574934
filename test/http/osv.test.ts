import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOsvRecord, validateOsvRecord } from "../../src/core/osv/index.ts";
import { createApp } from "../../src/http/app.ts";
import { insertAdvisory } from "../../src/repositories/advisories.repository.ts";
import { freshPgDatabase, type PgTestDatabase } from "../helpers/db.ts";
import { type Seeded, SHA, seedHistory } from "./seed.ts";

let db: PgTestDatabase;
let app: FastifyInstance;
let seeded: Seeded;
let dump: Map<string, unknown>;

const q = async (body: unknown, url = "/v1/query") => {
  const res = await app.inject({ method: "POST", url, payload: body as object });
  return { status: res.statusCode, body: res.json() };
};

beforeAll(async () => {
  db = await freshPgDatabase();
  seeded = await seedHistory(db.db);
  // The "file dump" an OSV client could load instead: one {id}.json per record, read back from disk.
  const dir = mkdtempSync(join(tmpdir(), "hubwatch-osv-"));
  dump = new Map();
  for (const r of seeded.records) {
    writeFileSync(join(dir, `${r.id}.json`), JSON.stringify(r));
    dump.set(r.id, JSON.parse(readFileSync(join(dir, `${r.id}.json`), "utf8")));
  }
  app = await createApp({ db: db.db, osvPageSize: 1 });
});
afterAll(async () => {
  await app?.close();
  await db?.close();
});

describe("OSV API", () => {
  it("answers a purl query with the same records as the file dump, schema-valid", async () => {
    const { status, body } = await q({ package: { purl: "pkg:huggingface/acme/tiny-lm" } });
    expect(status).toBe(200);
    expect(body.vulns).toEqual([dump.get("x_HUBWATCH-2026-0001")]);
    for (const v of body.vulns) expect(validateOsvRecord(v)).toEqual({ valid: true, errors: [] });
    const byId = await app.inject({ method: "GET", url: "/v1/vulns/x_HUBWATCH-2026-0002" });
    expect(byId.json()).toEqual(dump.get("x_HUBWATCH-2026-0002"));
    // Owner and name are case-insensitive, as on the Hub: in a purl and in a GIT package URL.
    for (const pkg of [
      { purl: "pkg:huggingface/ACME/Tiny-LM" },
      { ecosystem: "GIT", name: "https://huggingface.co/Acme/TINY-lm" },
    ]) {
      const other = await q(pkg.purl ? { package: pkg } : { package: pkg, commit: SHA.B });
      expect(
        other.body.vulns?.map((v: { id: string }) => v.id),
        JSON.stringify(pkg),
      ).toEqual(["x_HUBWATCH-2026-0001"]);
    }
  });

  it("filters by commit along the revision order (introduced..fixed)", async () => {
    const at = async (sha: string) =>
      ((await q({ package: { purl: `pkg:huggingface/acme/tiny-lm@${sha}` } })).body.vulns ?? []).map(
        (v: { id: string }) => v.id,
      );
    expect(await at(SHA.A)).toEqual([]); // before the introduction
    expect(await at(SHA.B)).toEqual(["x_HUBWATCH-2026-0001"]);
    expect(await at(SHA.C)).toEqual(["x_HUBWATCH-2026-0001"]);
    expect(await at(SHA.D)).toEqual([]); // fixed
    expect(await at(SHA.E)).toEqual([]); // unknown commit
    const git = await q({
      package: { ecosystem: "GIT", name: "https://huggingface.co/acme/tiny-lm" },
      commit: SHA.C,
    });
    expect(git.body.vulns.map((v: { id: string }) => v.id)).toEqual(["x_HUBWATCH-2026-0001"]);
    const commitOnly = await q({ commit: SHA.Y });
    expect(commitOnly.body.vulns.map((v: { id: string }) => v.id)).toEqual(["x_HUBWATCH-2026-0002"]);
    expect((await q({ package: { purl: "pkg:pypi/requests" }, version: "1.0" })).body).toEqual({});
  });

  it("paginates with page_token and batches ids with modified", async () => {
    const first = await q({ commit: SHA.B });
    expect(first.body.vulns).toHaveLength(1);
    expect(first.body.next_page_token).toBeUndefined();
    const batch = await q(
      {
        queries: [
          { package: { purl: "pkg:huggingface/acme/tiny-lm" } },
          { package: { purl: `pkg:huggingface/acme/tiny-lm@${SHA.A}` } },
          { package: { ecosystem: "GIT", name: "https://huggingface.co/acme/other" } },
        ],
      },
      "/v1/querybatch",
    );
    expect(batch.status).toBe(200);
    expect(batch.body.results).toEqual([
      { vulns: [{ id: "x_HUBWATCH-2026-0001", modified: "2026-03-04T00:00:00Z" }] },
      {},
      { vulns: [{ id: "x_HUBWATCH-2026-0002", modified: "2026-03-02T00:00:01Z" }] },
    ]);
  });

  it("errors like OSV.dev", async () => {
    const both = await q({ package: { purl: `pkg:huggingface/acme/tiny-lm@${SHA.B}` }, version: SHA.B });
    expect(both.status).toBe(400);
    expect(both.body).toMatchObject({ code: 3, message: expect.any(String) });
    expect((await q({ commit: "not-a-sha" })).status).toBe(400);
    const missing = await app.inject({ method: "GET", url: "/v1/vulns/x_HUBWATCH-2099-9999" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ code: 5, message: "Vulnerability not found" });
    const form = await app.inject({
      method: "POST",
      url: "/v1/query",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: JSON.stringify({ package: { purl: "pkg:huggingface/acme/other" } }),
    });
    expect(form.json().vulns[0].id).toBe("x_HUBWATCH-2026-0002");
  });
});

describe("bulk feed", () => {
  it("serves all.zip, modified_id.csv newest first and {id}.json, with validators and HEAD", async () => {
    const zip = await app.inject({ method: "GET", url: "/osv/all.zip" });
    expect(zip.statusCode).toBe(200);
    const files = unzipSync(new Uint8Array(zip.rawPayload));
    expect(Object.keys(files).sort()).toEqual(["x_HUBWATCH-2026-0001.json", "x_HUBWATCH-2026-0002.json"]);
    for (const [name, bytes] of Object.entries(files)) {
      expect(JSON.parse(Buffer.from(bytes).toString("utf8"))).toEqual(dump.get(name.replace(".json", "")));
    }
    const csv = await app.inject({ method: "GET", url: "/osv/modified_id.csv" });
    expect(csv.body).toBe(
      "2026-03-04T00:00:00Z,x_HUBWATCH-2026-0001\n2026-03-02T00:00:01Z,x_HUBWATCH-2026-0002\n",
    );
    expect(csv.headers["last-modified"]).toBe(new Date("2026-03-04T00:00:00Z").toUTCString());
    const head = await app.inject({ method: "HEAD", url: "/osv/modified_id.csv" });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe("");
    expect(head.headers.etag).toBe(csv.headers.etag);
    const again = await app.inject({
      method: "GET",
      url: "/osv/all.zip",
      headers: { "if-none-match": String(zip.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    const since = await app.inject({
      method: "GET",
      url: "/osv/modified_id.csv",
      headers: { "if-modified-since": String(csv.headers["last-modified"]) },
    });
    expect(since.statusCode).toBe(304);
    const one = await app.inject({ method: "GET", url: "/osv/x_HUBWATCH-2026-0001.json" });
    expect(one.json()).toEqual(dump.get("x_HUBWATCH-2026-0001"));
    expect((await app.inject({ method: "GET", url: "/osv/..%2f..%2fetc%2fpasswd.json" })).statusCode).toBe(
      404,
    );
  });

  it("publishes an Atom feed with escaped entries", async () => {
    const atom = await app.inject({ method: "GET", url: "/osv/feed.atom" });
    expect(atom.headers["content-type"]).toContain("application/atom+xml");
    expect(atom.body).toContain("<title>x_HUBWATCH-2026-0001: Parameter count changed</title>");
    expect(atom.body.match(/<entry>/g)).toHaveLength(2);
    // Ids and links never come from the request's Host; entries link to the HTML revision page.
    const spoofed = await app.inject({
      method: "GET",
      url: "/osv/feed.atom",
      headers: { host: "evil.example" },
    });
    expect(spoofed.body).not.toContain("evil.example");
    expect(spoofed.body).toContain("<id>urn:hubwatch:advisory:x_HUBWATCH-2026-0001</id>");
    expect(spoofed.body).toMatch(
      /<link rel="alternate" type="text\/html" href="\/repos\/acme\/tiny-lm\/revisions\/[0-9a-f]{40}"\/>/,
    );
    const pub = await createApp({ db: db.db, publicUrl: "https://hubwatch.example/" });
    const absolute = (await pub.inject({ method: "GET", url: "/osv/feed.atom" })).body;
    await pub.close();
    expect(absolute).toContain('href="https://hubwatch.example/repos/acme/tiny-lm/revisions/');
    expect(absolute).toContain('<link rel="self" href="https://hubwatch.example/osv/feed.atom"/>');
  });
});

describe("OSV pagination", () => {
  it("pages through more results than a page holds (page size 1 here)", async () => {
    const extra = buildOsvRecord({
      id: "x_HUBWATCH-2026-0003",
      repo: "acme/tiny-lm",
      introducedSha: SHA.C,
      parentSha: SHA.B,
      published: new Date("2026-03-05T00:00:00Z"),
      modified: new Date("2026-03-05T00:00:00Z"),
      summary: "Fit changed",
      details: "d",
      changes: [],
      baseline: {},
    });
    await insertAdvisory(db.db, {
      id: extra.id,
      repoId: seeded.repoIds.tiny!,
      introducedSha: SHA.C,
      published: new Date(extra.published),
      modified: new Date(extra.modified),
      record: extra,
    });
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const { body } = await q({
        package: { purl: `pkg:huggingface/acme/tiny-lm@${SHA.C}` },
        ...(token && { page_token: token }),
      });
      seen.push(...(body.vulns ?? []).map((v: { id: string }) => v.id));
      token = body.next_page_token;
      pages++;
    } while (token);
    expect(pages).toBe(2);
    expect(seen).toEqual(["x_HUBWATCH-2026-0001", "x_HUBWATCH-2026-0003"]);
    expect((await q({ package: { purl: "pkg:huggingface/acme/tiny-lm" }, page_token: "bad!" })).status).toBe(
      400,
    );
  });
});
