/**
 * Bad upstream data (broken safetensors headers, config.json that is not UTF-8 or nests absurdly deep,
 * a 200 MB tokenizer.json): the revision is failed with a recorded reason and finding, later revisions
 * of the same repo and every other repo go on, and nothing is half-written.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { CommitSpec, FileSpec } from "../../src/replay-hub/index.ts";
import {
  expectAllDone,
  FAULTED_REPO,
  findingsOf,
  healthyRepos,
  OTHER_REPOS,
  type Pipeline,
  revisionsOf,
  startPipeline,
  storeInvariants,
} from "./harness.ts";

const A = FAULTED_REPO;
const OTHERS = OTHER_REPOS;

let p: Pipeline | undefined;
afterEach(async () => {
  await p?.close();
  p = undefined;
});

const text = (t: string): FileSpec => ({ kind: "text", text: t });
const commit = (title: string, changes: CommitSpec["changes"], hour: number): CommitSpec => ({
  title,
  date: new Date(Date.UTC(2025, 2, 1, hour)).toISOString(),
  changes,
});

/** A's upload revision (the first with weights) is the one a one-shot header fault hits. */
async function expectOnlyUploadFailed(pipeline: Pipeline, kind: string): Promise<void> {
  const revs = await revisionsOf(pipeline, A);
  const upload = pipeline.hub.history(A)[1]!.sha;
  expect(revs.find((r) => r.sha === upload)?.status).toBe("failed");
  expect(revs.find((r) => r.sha === upload)?.error).toMatch(kind);
  expect(revs.filter((r) => r.sha !== upload).every((r) => r.status === "done")).toBe(true);
  const findings = await findingsOf(pipeline, A);
  expect(findings.filter((f) => f.kind === kind).map((f) => f.sha)).toEqual([upload]);
  for (const repo of OTHERS) await expectAllDone(pipeline, repo);
  expect(await storeInvariants(pipeline)).toEqual([]);
}

/**
 * After a clean first pass, adds to A a bad revision, then one that restores the previous config.json
 * (same bytes, same oid); returns the bad sha.
 */
async function badThenGood(pipeline: Pipeline, bad: CommitSpec["changes"]): Promise<string> {
  await pipeline.cycle();
  const good = await (await fetch(`${pipeline.hub.url}/${A}/resolve/main/config.json`)).text();
  pipeline.hub.clearLog();
  const badSha = pipeline.hub.addCommit(A, commit("bad upload", bad, 1));
  pipeline.hub.addCommit(A, commit("Fix config.json", { "config.json": text(good) }, 2));
  for (const repo of OTHERS)
    pipeline.hub.addCommit(repo, commit("README", { "README.md": text("# next\n") }, 1));
  await pipeline.cycle();
  return badSha;
}

async function expectBadRevision(pipeline: Pipeline, badSha: string, kinds: RegExp): Promise<string> {
  const revs = await revisionsOf(pipeline, A);
  const bad = revs.find((r) => r.sha === badSha);
  expect(bad?.status).toBe("failed");
  expect(revs.filter((r) => r.sha !== badSha).every((r) => r.status === "done")).toBe(true);
  const finding = (await findingsOf(pipeline, A)).find((f) => f.sha === badSha);
  expect(finding?.kind).toMatch(kinds);
  for (const repo of OTHERS) await expectAllDone(pipeline, repo);
  expect(pipeline.runner.failures).toEqual([]);
  expect(await storeInvariants(pipeline)).toEqual([]);
  return finding!.message;
}

describe("bad upstream data", () => {
  it("a truncated safetensors header fails that revision (bad_header); the repo and the others go on", async () => {
    p = await startPipeline({ repos: healthyRepos() });
    p.hub.setFault({ kind: "safetensors", mode: "truncate", times: 1, repo: A });
    await p.cycle();
    await expectOnlyUploadFailed(p, "bad_header");
  });

  it("a header length of 2^60 is refused without reading further (bad_header)", async () => {
    p = await startPipeline({ repos: healthyRepos() });
    p.hub.setFault({ kind: "safetensors", mode: "huge-length", times: 1, repo: A });
    await p.cycle();
    await expectOnlyUploadFailed(p, "bad_header");
    // Only the 8-byte length prefix was read from the faulted file: no range past it.
    const ranges = p.hub.requestLog
      .filter((e) => e.repo === A && e.fault === "safetensors")
      .map((e) => e.range);
    expect(ranges).toEqual(["bytes=0-7"]);
  });

  it("a safetensors header that is not JSON fails the revision (bad_header)", async () => {
    p = await startPipeline({ repos: healthyRepos() });
    p.hub.setFault({ kind: "safetensors", mode: "not-json", times: 2, repo: A });
    await p.cycle();
    await expectOnlyUploadFailed(p, "bad_header");
  });

  it("config.json with invalid UTF-8 fails that revision with a finding; the next revision is processed", async () => {
    p = await startPipeline({ repos: healthyRepos() });
    const bad = await badThenGood(p, { "config.json": { kind: "virtual", size: 512, seed: "not-utf8" } });
    const message = await expectBadRevision(p, bad, /^bad_config$/);
    expect(message).toMatch(/UTF-8|JSON/i);
  });

  // Was a gap (the RangeError from re-serializing was retried forever): JSON is now refused past a depth cap.
  it("config.json nested 100,000 levels deep fails that revision (no stack overflow kills the worker)", async () => {
    p = await startPipeline({ repos: healthyRepos() });
    const depth = 100_000;
    const deep = `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
    const bad = await badThenGood(p, { "config.json": text(deep) });
    const message = await expectBadRevision(p, bad, /^bad_config$/);
    expect(message).toMatch(/nested/);
  });

  it("a 200 MB tokenizer.json is refused by its advertised size, never downloaded", async () => {
    p = await startPipeline({ repos: healthyRepos() });
    const huge: FileSpec = { kind: "virtual", size: 200 * 2 ** 20, seed: "huge-tokenizer" };
    await p.cycle();
    p.hub.clearLog();
    const sha = p.hub.addCommit(A, commit("huge tokenizer", { "tokenizer.json": huge }, 1));
    await p.cycle();
    expect(p.hub.requestLog.filter((e) => e.path.includes("tokenizer.json"))).toEqual([]);
    expect(p.hub.stats().bytesSent).toBeLessThan(1_000_000);
    const rev = (await revisionsOf(p, A)).find((r) => r.sha === sha);
    // Recorded: the revision is settled (not left pending) and the file's size is in its manifest.
    expect(rev?.status).not.toBe("pending");
    const { rows } = await p.sql.query(
      `select f.size, f.artifact_hash from revision_files f join revisions r on r.id = f.revision_id
       where r.sha = $1 and f.path = 'tokenizer.json'`,
      [sha],
    );
    expect(rows.length).toBe(1);
    expect(Number(rows[0].size)).toBe(200 * 2 ** 20);
    expect(rows[0].artifact_hash).toBeNull();
    // ...and a reader is told it was not compared.
    const tooLarge = (await findingsOf(p, A)).filter((f) => f.kind === "too_large");
    expect(tooLarge).toEqual([
      { sha, kind: "too_large", message: expect.stringMatching(/tokenizer\.json is 209715200 bytes/) },
    ]);
    for (const repo of OTHERS) await expectAllDone(p, repo);
    expect(await storeInvariants(p)).toEqual([]);
  });
});
