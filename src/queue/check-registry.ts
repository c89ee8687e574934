import { type AnyJob, QUEUE_NAMES } from "./types.ts";

/**
 * Checked at every boot, before any worker starts: a registry mistake should stop the process with a
 * message, not surface as jobs that silently never run.
 */
export function checkRegistry(jobs: readonly AnyJob[]): Map<string, AnyJob> {
  const byName = new Map<string, AnyJob>();
  const problems: string[] = [];
  for (const job of jobs) {
    if (!job || typeof job.name !== "string" || job.name === "") {
      problems.push("a registry entry has no name");
      continue;
    }
    if (byName.has(job.name)) problems.push(`two jobs are named "${job.name}"`);
    if (typeof job.handler !== "function") problems.push(`job "${job.name}" has no handler`);
    if (!job.payload || typeof job.payload.safeParse !== "function")
      problems.push(`job "${job.name}" has no payload schema`);
    if (!QUEUE_NAMES.includes(job.queue))
      problems.push(`job "${job.name}" names unknown queue "${job.queue}"`);
    if (job.name.includes(":")) problems.push(`job "${job.name}": names may not contain ':'`);
    if (job.schedule !== undefined && typeof job.schedule !== "function")
      problems.push(`job "${job.name}": schedule must be a function of the config`);
    if (!(job.opts.attempts >= 1)) problems.push(`job "${job.name}": attempts must be >= 1`);
    byName.set(job.name, job);
  }
  if (problems.length > 0) throw new Error(`hubwatch: job registry is invalid:\n  ${problems.join("\n  ")}`);
  return byName;
}

/** Validates a payload against its job's schema; the message names the job and the bad fields. */
export function parsePayload(
  job: AnyJob,
  payload: unknown,
): { ok: true; value: unknown } | { ok: false; error: string } {
  const parsed = job.payload.safeParse(payload);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
  return { ok: false, error: `job "${job.name}": bad payload: ${issues}` };
}
