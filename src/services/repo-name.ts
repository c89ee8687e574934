import { z } from "zod";

/**
 * A Hub model repo id, "owner/name": letters, digits, "-", "_", "."; no "--" or ".." (the Hub forbids
 * both, which also keeps job ids built with "--" unambiguous), at most 96 characters per part.
 */
export const RepoName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,95}\/[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/, "expected OWNER/NAME")
  .refine((s) => !s.includes("--") && !s.includes(".."), "'--' and '..' are not allowed in repo names");
export type RepoName = z.infer<typeof RepoName>;

export const Sha = z.string().regex(/^[0-9a-f]{40}$/, "expected a 40-hex commit sha");
