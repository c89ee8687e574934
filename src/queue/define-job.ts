import type { JobDefinition } from "./types.ts";

/** Declares a job: the identity function, there to infer the payload type from its zod schema. */
export function defineJob<P, S>(def: JobDefinition<P, S>): JobDefinition<P, S> {
  return Object.freeze(def);
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
