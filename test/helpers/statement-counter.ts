/**
 * Counts the SQL statements the pipeline sends to PostgreSQL: a node-postgres pool whose clients log
 * every query they send (pool queries and transactions alike), and a driver for one repo that takes
 * each pending revision through the pipeline's four steps, in advanceRepo's order, counting each step.
 */
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { schema } from "../../src/db/index.ts";
import type { Db } from "../../src/db/types.ts";
import { getRepoByName } from "../../src/repositories/repos.repository.ts";
import { markRevisionFailed, type Revision } from "../../src/repositories/revisions.repository.ts";
import { getParentRevision, listRevisionsByRepo } from "../../src/repositories/revisions-read.repository.ts";
import { nextPendingRevision } from "../../src/repositories/revisions-status.repository.ts";
import { adviseRevision } from "../../src/services/advise-revision.ts";
import type { PipelineServices } from "../../src/services/deps.ts";
import { diffRevision } from "../../src/services/diff-revision.ts";
import { estimateRevision } from "../../src/services/estimate-revision.ts";
import { BadUpstreamDataError } from "../../src/services/hub-errors.ts";
import { pollRepo } from "../../src/services/poll-repo.ts";
import { snapshotRevision } from "../../src/services/snapshot-revision.ts";

/** Transaction control: sent by the driver around a transaction, not a query of ours. */
const CONTROL = /^\s*(begin|commit|rollback|savepoint|release)\b/i;

type Tally = { statements: number; control: number; sql: string[] };

export type StatementCounter = {
  db: Db;
  /** Statements since the last take (control statements counted apart), then starts over. */
  take(): Tally;
  close(): Promise<void>;
};

export function countingDatabase(url: string): StatementCounter {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  let sent: string[] = [];
  pool.on("connect", (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    Object.assign(client, {
      query: (...args: unknown[]) => {
        const first = args[0];
        sent.push(typeof first === "string" ? first : String((first as { text?: unknown }).text));
        return query(...args);
      },
    });
  });
  return {
    db: drizzle({ client: pool, schema }),
    take() {
      const control = sent.filter((q) => CONTROL.test(q)).length;
      const tally = { statements: sent.length - control, control, sql: sent };
      sent = [];
      return tally;
    },
    close: () => pool.end(),
  };
}

type StepCounts = Record<"snapshot" | "diff" | "estimate" | "advise", Tally>;
export type RevisionCounts = { sha: string; steps: StepCounts };

/**
 * Polls `name` and takes every pending revision through snapshot, diff, estimate and advise as
 * advanceRepo does (base: the parent when processed, else the last processed revision before it),
 * counting each step's statements. A config the estimator rejects fails the revision (its advise is
 * not counted); other errors throw.
 */
export async function processCounting(
  s: PipelineServices,
  counter: StatementCounter,
  name: string,
): Promise<RevisionCounts[]> {
  await pollRepo(s, name);
  const repo = (await getRepoByName(s.db, name))!;
  const out: RevisionCounts[] = [];
  for (
    let rev = await nextPendingRevision(s.db, repo.id);
    rev;
    rev = await nextPendingRevision(s.db, repo.id)
  ) {
    const revision: Revision = rev;
    const base = await baseOf(s.db, revision);
    counter.take();
    await snapshotRevision(s, repo, revision, base);
    const snapshot = counter.take();
    await diffRevision(s, revision, base);
    const diff = counter.take();
    const estimated = await estimateRevision(s, revision).catch(async (err: unknown) => {
      if (!(err instanceof BadUpstreamDataError)) throw err;
      await markRevisionFailed(s.db, revision.id, `${err.kind}: ${err.message}`);
      return "failed" as const;
    });
    const estimate = counter.take();
    if (estimated === "failed") continue;
    await adviseRevision(s, repo, revision, estimated);
    out.push({ sha: revision.sha, steps: { snapshot, diff, estimate, advise: counter.take() } });
  }
  return out;
}

async function baseOf(db: Db, revision: Revision): Promise<Revision | null> {
  const parent = await getParentRevision(db, revision);
  if (parent?.status === "done") return parent;
  const done = await listRevisionsByRepo(db, revision.repoId, { status: "done", newestFirst: true });
  return done.find((r) => r.seq < revision.seq) ?? null;
}
