/**
 * SQL statements per revision and per pipeline step, counted on node-postgres (test/helpers/statement-counter.ts)
 * while synthetic repos are processed step by step, with one webhook subscription that wants every event.
 */
import { makeSyntheticRepos, startReplayHub } from "../../src/replay-hub/index.ts";
import { watchRepo } from "../../src/services/watch-repos.ts";
import { createSubscription } from "../../src/services/webhooks/subscriptions.ts";
import {
  countingDatabase,
  processCounting,
  type RevisionCounts,
} from "../../test/helpers/statement-counter.ts";
import { benchDatabase, benchServices, round } from "./harness.ts";

const STEPS = ["snapshot", "diff", "estimate", "advise"] as const;

export async function statementsPerStep(repos: number, revisionsEach: number) {
  const specs = makeSyntheticRepos({ count: repos, revisionsEach });
  const hub = await startReplayHub({ repos: specs });
  const db = await benchDatabase(2);
  const counter = countingDatabase(db.url);
  try {
    const s = { ...benchServices(db, hub.url).services, db: counter.db };
    await createSubscription({ db: s.db, allowPrivateTargets: true }, { url: "http://127.0.0.1:9/hook" });
    const counts: RevisionCounts[] = [];
    for (const r of specs) {
      await watchRepo(s, r.id);
      counts.push(...(await processCounting(s, counter, r.id)));
    }
    const perStep = Object.fromEntries(
      STEPS.map((step) => {
        const n = counts.map((c) => c.steps[step].statements);
        const control = counts.map((c) => c.steps[step].control);
        return [step, { mean: mean(n), max: Math.max(...n), controlMean: mean(control) }];
      }),
    );
    const total = counts.map((c) => STEPS.reduce((sum, k) => sum + c.steps[k].statements, 0));
    return { revisions: counts.length, perStep, perRevision: { mean: mean(total), max: Math.max(...total) } };
  } finally {
    await counter.close();
    await db.drop();
    await hub.close();
  }
}

const mean = (xs: number[]) => round(xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length), 1);
