import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app.ts";
import { freshPgDatabase, type PgTestDatabase } from "../helpers/db.ts";
import { SHA, seedHistory } from "./seed.ts";

// The JSON twin of the history pages: GET /api/repos and GET /api/repos/OWNER/NAME/revisions (public).

let db: PgTestDatabase;
let app: FastifyInstance;
beforeAll(async () => {
  db = await freshPgDatabase();
  await seedHistory(db.db);
  app = await createApp({ db: db.db });
});
afterAll(async () => {
  await app?.close();
  await db?.close();
});

const get = (url: string) => app.inject({ method: "GET", url });

describe("JSON twin of the history pages", () => {
  it("lists watched repos with status, head and last poll, without a token", async () => {
    const res = await get("/api/repos");
    expect(res.statusCode).toBe(200);
    const { repos } = res.json();
    expect(repos.map((r: { name: string }) => r.name).sort()).toEqual(["acme/other", "acme/tiny-lm"]);
    for (const r of repos) {
      expect(Object.keys(r).sort()).toEqual(["base", "head", "last_polled_at", "name", "status"]);
      expect(r.base).toBeNull(); // not PEFT adapters
    }
  });

  it("pages revisions newest first by keyset cursor, with changes and prompt_changed", async () => {
    const first = (await get("/api/repos/acme/tiny-lm/revisions?limit=3")).json();
    expect(first.revisions.map((r: { sha: string }) => r.sha)).toEqual([SHA.D, SHA.C, SHA.B]);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = (
      await get(`/api/repos/acme/tiny-lm/revisions?limit=3&cursor=${first.next_cursor}`)
    ).json();
    expect(second).toMatchObject({ revisions: [{ sha: SHA.A, title: "initial commit" }], next_cursor: null });
    const all = (await get("/api/repos/acme/tiny-lm/revisions")).json();
    expect(all.revisions).toHaveLength(4);
    const changes = all.revisions.flatMap((r: { changes: object[] }) => r.changes);
    for (const c of changes)
      expect(Object.keys(c).sort()).toEqual(["category", "kind", "path", "prompt_changed", "summary"]);
    const prompt = changes.filter((c: { category: string }) => c.category === "chat_template");
    expect(prompt.length).toBeGreaterThan(0);
    for (const c of prompt) expect([true, false, null]).toContain(c.prompt_changed);
    expect(
      changes
        .filter((c: { category: string }) => c.category !== "chat_template")
        .every((c: { prompt_changed: unknown }) => c.prompt_changed === null),
    ).toBe(true);
    expect(all.revisions[0]).toMatchObject({
      status: expect.any(String),
      date: expect.stringMatching(/^2026-/),
    });
  });

  it("answers 404 for an unwatched repo and 400 for a bad cursor or limit", async () => {
    expect((await get("/api/repos/acme/none/revisions")).statusCode).toBe(404);
    expect((await get("/api/repos/acme/tiny-lm/revisions?cursor=nope")).statusCode).toBe(400);
    expect((await get("/api/repos/acme/tiny-lm/revisions?limit=0")).statusCode).toBe(400);
    expect((await get("/api/repos/acme/tiny-lm/revisions?limit=1000")).statusCode).toBe(400);
  });
});
