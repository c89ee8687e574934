import { describe, expect, it } from "vitest";
import { z } from "zod";
import { backoffDelayMs } from "./backoff.ts";
import { checkRegistry } from "./check-registry.ts";
import { defineJob, followUp, jobIdFor } from "./define-job.ts";
import { PermanentJobError } from "./errors.ts";
import { createInProcessRunner } from "./in-process-runner.ts";
import type { AnyJob } from "./types.ts";

const opts = { attempts: 3, backoff: { delayMs: 10, jitter: 0.5 } };

function job(name: string, handler: AnyJob["handler"], extra: Partial<AnyJob> = {}): AnyJob {
  return defineJob({ name, queue: "hub", payload: z.object({ repo: z.string() }), opts, handler, ...extra });
}

describe("in-process runner", () => {
  it("runs a job id once while it is queued, and again once it finished", async () => {
    const runs: string[] = [];
    const runner = createInProcessRunner({
      jobs: [
        job("a", async (p) => void runs.push(p.repo), {
          jobId: (p: { repo: string }) => jobIdFor("a", p.repo),
        }),
      ],
      services: {},
    });
    await runner.enqueue("a", { repo: "x/y" });
    await runner.enqueue("a", { repo: "x/y" });
    await runner.start();
    await runner.idle();
    await runner.enqueue("a", { repo: "x/y" });
    await runner.idle();
    expect(runs).toEqual(["x/y", "x/y"]);
    await runner.close();
  });

  it("retries with backoff, then records the failure; permanent errors are not retried", async () => {
    let flaky = 0;
    let permanent = 0;
    const runner = createInProcessRunner({
      jobs: [
        job("flaky", async () => {
          flaky += 1;
          throw new Error("down");
        }),
        job("bad", async () => {
          permanent += 1;
          throw new PermanentJobError("no");
        }),
      ],
      services: {},
    });
    await runner.start();
    await runner.enqueue("flaky", { repo: "a/b" });
    await runner.enqueue("bad", { repo: "a/b" });
    await runner.idle();
    expect(flaky).toBe(3);
    expect(permanent).toBe(1);
    expect(runner.failures.map((f) => [f.name, f.attempts])).toEqual([
      ["bad", 1],
      ["flaky", 3],
    ]);
    await runner.close();
  });

  it("a Hub 429 delays the job for Retry-After without using an attempt", async () => {
    let calls = 0;
    const started = Date.now();
    const rateLimited = Object.assign(new Error("429"), { name: "HubRateLimitedError", retryAfterMs: 50 });
    const runner = createInProcessRunner({
      jobs: [
        job("rl", async () => {
          calls += 1;
          if (calls <= 3) throw rateLimited;
        }),
      ],
      services: {},
    });
    await runner.start();
    await runner.enqueue("rl", { repo: "a/b" });
    await runner.idle();
    expect(calls).toBe(4);
    expect(runner.failures).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    await runner.close();
  });

  it("never runs two jobs of one group at once", async () => {
    let active = 0;
    let maxActive = 0;
    const handler = async () => {
      active += 1;
      maxActive = Math.max(maxActive, active);
      await new Promise((r) => setTimeout(r, 5));
      active -= 1;
    };
    const runner = createInProcessRunner({
      jobs: [job("g", handler, { group: (p: { repo: string }) => p.repo })],
      services: {},
      concurrency: 8,
    });
    await runner.start();
    for (let i = 0; i < 5; i++) await runner.enqueue("g", { repo: "same/repo" });
    await runner.idle();
    expect(maxActive).toBe(1);
    expect(runner.completed).toBe(5);
    await runner.close();
  });

  it("queues a handler's follow-ups after it succeeds; a job queued while it runs runs once more after", async () => {
    const runs: string[] = [];
    let again = true;
    const idOf = (p: { repo: string }) => jobIdFor("lane", p.repo);
    const second: AnyJob = job("second", async (p) => void runs.push(`second ${p.repo}`));
    const lane: AnyJob = job(
      "lane",
      async (p) => {
        runs.push(`lane ${p.repo}`);
        if (again) {
          again = false;
          await runner.enqueue("lane", { repo: p.repo }); // while running: coalesced into one rerun
          await runner.enqueue("lane", { repo: p.repo });
        }
        return [followUp(second, { repo: p.repo })];
      },
      { jobId: idOf },
    );
    const runner = createInProcessRunner({ jobs: [lane, second], services: {} });
    await runner.start();
    await runner.enqueue("lane", { repo: "a/b" });
    await runner.idle();
    expect(runs.sort()).toEqual(["lane a/b", "lane a/b", "second a/b", "second a/b"]);
    await runner.close();
  });

  it("rejects a payload that does not parse", async () => {
    const runner = createInProcessRunner({ jobs: [job("p", async () => {})], services: {} });
    await expect(runner.enqueue("p", { repo: 5 })).rejects.toThrow(/bad payload/);
    await expect(runner.enqueue("nope", {})).rejects.toThrow(/no job named/);
  });
});

describe("registry check", () => {
  it("names every problem", () => {
    const a = job("same", async () => {});
    const b = { ...job("same", async () => {}), schedule: "*/5 * * * *" } as unknown as AnyJob;
    const c = { ...job("c", async () => {}), handler: undefined } as unknown as AnyJob;
    expect(() => checkRegistry([a, b, c])).toThrow(
      /two jobs are named "same"[\s\S]*schedule must be a function[\s\S]*"c" has no handler/,
    );
  });
});

describe("backoff", () => {
  it("doubles per attempt within the jitter band", () => {
    const b = { delayMs: 1000, jitter: 0.25 };
    expect(backoffDelayMs(1, b, () => 0.5)).toBe(1000);
    expect(backoffDelayMs(3, b, () => 0.5)).toBe(4000);
    expect(backoffDelayMs(3, b, () => 0)).toBe(3000);
    expect(backoffDelayMs(3, b, () => 1)).toBe(5000);
  });
});
