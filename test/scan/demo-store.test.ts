import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asc, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoCommand } from "../../src/cli/demo-command.ts";
import { runScan, type ScanOptions } from "../../src/cli/scan-command.ts";
import { loadConfig } from "../../src/config/env.ts";
import type { CheckedReference } from "../../src/core/scan/check.ts";
import { FLOATING_RULE_ID } from "../../src/core/scan/sarif.ts";
import { createDatabase } from "../../src/db/client.ts";
import { schema } from "../../src/db/index.ts";
import type { DatabaseHandle } from "../../src/db/types.ts";
import { createApp } from "../../src/http/app.ts";
import { storeAdvisories } from "../../src/services/scan/advisory-sources.ts";
import { checkReferences } from "../../src/services/scan/check-references.ts";
import { storeRevisions } from "../../src/services/scan/revisions.ts";
import { scanTree } from "../../src/services/scan/scan-tree.ts";
import { sarifErrors } from "./sarif-schema.ts";

// `hubwatch scan` against the demo's store: the demo scenario runs in process (replay hub, every
// revision, upstream pushes), then a small codebase pinned inside and outside its advisories is scanned.

const config = loadConfig({ LOG_LEVEL: "silent" });
function sink() {
  let text = "";
  return {
    write(s: string) {
      text += s;
      return true;
    },
    text: () => text,
  };
}

type Advisory = { id: string; repo: string; introduced: string; fixed: string | null };

async function advisoriesOf(h: DatabaseHandle): Promise<Advisory[]> {
  const rows = await h.db
    .select({ a: schema.advisories, repo: schema.repos.name })
    .from(schema.advisories)
    .innerJoin(schema.repos, eq(schema.repos.id, schema.advisories.repoId));
  return rows
    .filter((r) => !("withdrawn" in r.a.record))
    .map((r) => ({ id: r.a.id, repo: r.repo, introduced: r.a.introducedSha, fixed: r.a.fixedSha }));
}

async function historyOf(h: DatabaseHandle, repo: string) {
  const rows = await h.db
    .select({ sha: schema.revisions.sha, away: schema.revisions.forcePushedAway })
    .from(schema.revisions)
    .innerJoin(schema.repos, eq(schema.repos.id, schema.revisions.repoId))
    .where(eq(schema.repos.name, repo))
    .orderBy(asc(schema.revisions.seq));
  const [head] = await h.db.select().from(schema.repos).where(eq(schema.repos.name, repo));
  return { shas: rows.filter((r) => !r.away).map((r) => r.sha), head: head?.lastSeenSha ?? null };
}

describe("scan against the demo store", () => {
  let dir = "";
  let tree = "";
  let store: DatabaseHandle;
  let closed: Advisory;
  let open: Advisory;
  let before = "";
  let openHead = "";

  const scan = async (opts: Partial<ScanOptions>, paths = ["."]) => {
    const out = sink();
    const err = sink();
    const code = await runScan(
      config,
      paths,
      { format: "json", failOn: ["advisory"], offline: true, ...opts },
      { out, err, cwd: tree, db: store.db, storeLabel: "the demo store" },
    );
    return { code, out: out.text(), err: err.text() };
  };
  const json = (text: string) => JSON.parse(text) as { references: CheckedReference[] };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "hubwatch-scan-demo-"));
    const log = sink();
    expect(await demoCommand(config, { out: dir }, log as never), log.text()).toBe(0);
    store = await createDatabase({ dataDir: join(dir, ".demo-db") });
    const all = await advisoriesOf(store);
    closed = all.find((a) => a.fixed) as Advisory;
    open = all.find((a) => !a.fixed && a.repo !== closed?.repo) as Advisory;
    expect(closed && open, JSON.stringify(all)).toBeTruthy();
    const history = await historyOf(store, closed.repo);
    before = history.shas[history.shas.indexOf(closed.introduced) - 1] ?? "";
    openHead = (await historyOf(store, open.repo)).head ?? "";
    expect(before).toMatch(/^[0-9a-f]{40}$/);

    tree = join(dir, "code");
    await mkdir(join(tree, "deploy"), { recursive: true });
    const load = (name: string, repo: string, rev: string) =>
      `${name} = AutoModelForCausalLM.from_pretrained("${repo}", revision="${rev}")`;
    await writeFile(
      join(tree, "app.py"),
      [
        "from transformers import AutoModelForCausalLM",
        load("inside", closed.repo, closed.introduced),
        load("before", closed.repo, before),
        load("after", closed.repo, closed.fixed ?? ""),
        load("short", open.repo, open.introduced.slice(0, 10)),
        "",
      ].join("\n"),
    );
    await writeFile(join(tree, "deploy", "serve.sh"), `vllm serve ${open.repo}\n`);
    await writeFile(join(tree, "deploy", ".env"), "MODEL_ID=acme/not-watched\n");
    await writeFile(join(tree, "clean.py"), `${load("before", closed.repo, before)}\n`);
  }, 240_000);

  afterAll(async () => {
    await store?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("reports a pinned revision inside an advisory's range and exits 1", async () => {
    const { code, out } = await scan({});
    expect(code).toBe(1);
    const refs = json(out).references;
    const at = (file: string, line: number) => refs.find((r) => r.file === file && r.line === line);
    expect(at("app.py", 2)).toMatchObject({ status: "checked", sha: closed.introduced });
    expect(at("app.py", 2)?.advisories.map((a) => a.id)).toEqual([closed.id]);
    expect(at("app.py", 2)?.advisories[0]?.summary).toEqual(expect.any(String));
    expect(at("app.py", 3)).toMatchObject({ status: "checked", sha: before, advisories: [] });
    expect(at("app.py", 4)).toMatchObject({ status: "checked", sha: closed.fixed, advisories: [] });
    // A short sha resolves among the store's revisions; the open advisory covers it.
    expect(at("app.py", 5)).toMatchObject({ revisionKind: "short-sha", sha: open.introduced });
    expect(at("app.py", 5)?.advisories.map((a) => a.id)).toContain(open.id);
    // A floating reference is checked at the head the store knows, and told to pin to it.
    expect(at("deploy/serve.sh", 1)).toMatchObject({ floating: true, sha: openHead, pinTo: openHead });
    expect(at("deploy/serve.sh", 1)?.advisories.map((a) => a.id)).toContain(open.id);
    expect(at("deploy/.env", 1)).toMatchObject({ floating: true, status: "head-unknown", sha: null });
  });

  it("asks about each distinct (purl, commit) once, in one batch", async () => {
    const scanned = await scanTree(["."], { cwd: tree });
    const source = storeAdvisories(store.db, "store");
    const batches: object[][] = [];
    const counting = {
      ...source,
      querybatch(q: object[]) {
        batches.push(q);
        return source.querybatch(q);
      },
    };
    await checkReferences(scanned.references, scanned.stats.files, {
      advisories: counting,
      revisions: storeRevisions(store.db),
      warn: () => {},
    });
    expect(batches).toHaveLength(1);
    // app.py:3 and clean.py:1 load the same commit: one query for both; the unwatched repo has no commit.
    expect(batches[0]).toHaveLength(scanned.references.length - 2);
    expect(batches[0]).toContainEqual({
      package: { purl: `pkg:huggingface/${closed.repo}@${closed.introduced}` },
    });
  });

  it("exits 0 when nothing fails, and --fail-on floating fails on a floating reference", async () => {
    expect((await scan({}, ["clean.py"])).code).toBe(0);
    expect((await scan({ failOn: ["floating"] }, ["clean.py"])).code).toBe(0);
    expect((await scan({ failOn: ["floating"] }, ["deploy"])).code).toBe(1);
    expect((await scan({ failOn: ["advisory"] }, ["deploy/.env"])).code).toBe(0);
  });

  it("writes SARIF 2.1.0 that validates: one result per advisory hit and per floating reference", async () => {
    const { code, out } = await scan({ format: "sarif" });
    expect(code).toBe(1);
    const log = JSON.parse(out);
    expect(sarifErrors(log)).toEqual([]);
    const refs = json((await scan({})).out).references;
    const results = log.runs[0].results as {
      ruleId: string;
      locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[];
    }[];
    const hits = refs.flatMap((r) => r.advisories.map((a) => `${a.id} ${r.file}:${r.line}`));
    const floating = refs.filter((r) => r.floating).map((r) => `${FLOATING_RULE_ID} ${r.file}:${r.line}`);
    const where = (r: (typeof results)[number]) =>
      `${r.ruleId} ${r.locations[0]?.physicalLocation.artifactLocation.uri}:${r.locations[0]?.physicalLocation.region.startLine}`;
    expect(results.map(where).sort()).toEqual([...hits, ...floating].sort());
    expect(hits.length).toBeGreaterThanOrEqual(3);
  });

  describe("with --api", () => {
    let app: FastifyInstance;
    let url = "";
    beforeAll(async () => {
      app = await createApp({ db: store.db, rateLimit: false });
      url = await app.listen({ host: "127.0.0.1", port: 0 });
    });
    afterAll(async () => {
      await app?.close();
    });

    it("gives the pinned references the same advisories over /v1/querybatch", async () => {
      const local = json((await scan({})).out).references;
      const { code, out } = await scan({ api: url });
      expect(code).toBe(1);
      const remote = json(out).references;
      const pinned = (refs: CheckedReference[]) =>
        refs
          .filter((r) => !r.floating && r.revisionKind === "sha")
          .map((r) => [r.file, r.line, r.advisories]);
      expect(pinned(remote)).toEqual(pinned(local));
      // Offline, an API gives no heads: floating references are reported but not checked.
      expect(remote.find((r) => r.file === "deploy/serve.sh")).toMatchObject({ status: "head-unknown" });
    });

    it("exits 2 when the API cannot be reached or a path does not exist", async () => {
      const unreachable = await scan({ api: "http://127.0.0.1:9" });
      expect(unreachable.code).toBe(2);
      expect(unreachable.err).toContain("cannot reach http://127.0.0.1:9/v1/querybatch");
      expect((await scan({}, ["no/such/path"])).code).toBe(2);
    });
  });
});
