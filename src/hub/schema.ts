import { z } from "zod";
import { HubBadDataError } from "./errors.ts";

/** A commit as @huggingface/hub's listCommits yields it (mapped from the API's {id, authors[{user}], date}). */
export const CommitDataSchema = z.object({
  oid: z.string().regex(/^[0-9a-f]{40}$/),
  title: z.string(),
  message: z.string().optional(),
  authors: z.array(z.object({ username: z.string() })),
  date: z.date().refine((d) => !Number.isNaN(d.getTime()), "invalid date"),
});

/** One entry of GET /api/models/:repo/tree/:rev. */
export const TreeEntrySchema = z.object({
  type: z.enum(["file", "directory", "unknown"]),
  path: z.string().min(1),
  size: z.number().int().nonnegative(),
  oid: z.string().optional(),
  lfs: z
    .object({ oid: z.string(), size: z.number().int().nonnegative(), pointerSize: z.number() })
    .optional(),
});

/** A model as listModels yields it with additionalFields ["sha"] (only what the head check needs). */
export const OwnerModelSchema = z.object({
  name: z.string().min(3),
  sha: z
    .string()
    .regex(/^[0-9a-f]{40}$/)
    .optional(),
});

/** model.safetensors.index.json: only weight_map matters to us. */
export const SafetensorsIndexSchema = z.object({
  metadata: z.record(z.string(), z.unknown()).nullish(),
  weight_map: z.record(z.string(), z.string()),
});

/** Parses `value` or throws a non-retryable HubBadDataError naming `what`. */
export function parseUpstream<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const r = schema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new HubBadDataError(
      `Malformed ${what}: ${issue?.path.join(".") ?? ""} ${issue?.message ?? ""}`.trim(),
      {
        code: "Malformed",
      },
    );
  }
  return r.data;
}
