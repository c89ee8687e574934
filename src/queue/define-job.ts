import type { AnyJob, EnqueueOptions, FollowUp, JobDefinition } from "./types.ts";

/** Declares a job: the identity function, there to infer the payload type and literal name. */
export function defineJob<P, S, const N extends string>(def: JobDefinition<P, S, N>): JobDefinition<P, S, N> {
  return Object.freeze(def);
}

/** A follow-up for `job` with a payload its schema types: what handlers return instead of enqueueing. */
export function followUp<P>(
  // biome-ignore lint/suspicious/noExplicitAny: any services bag; the payload is what is checked.
  job: JobDefinition<P, any, string>,
  payload: NoInfer<P>,
  opts: EnqueueOptions = {},
): FollowUp {
  return {
    job: job as AnyJob,
    payload,
    ...(opts.delayMs ? { delayMs: opts.delayMs } : {}),
    ...(opts.priority ? { priority: opts.priority } : {}),
  };
}

/**
 * A deterministic BullMQ job id from a job name and parts: `poll__owner--name`.
 * BullMQ forbids ':' in custom ids and all-digit ids; Hub repo names never contain "--", so "/" -> "--"
 * cannot collide.
 */
export function jobIdFor(name: string, ...parts: string[]): string {
  const clean = parts.map((p) => p.replaceAll("/", "--").replaceAll(":", "_"));
  return [name, ...clean].join("__");
}
