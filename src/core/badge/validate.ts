import { z } from "zod";

const STYLES = ["plastic", "flat", "flat-square", "for-the-badge", "social"] as const;

/**
 * shields.io's endpoint schema (services/endpoint-common.js): unknown keys are rejected, the
 * message must be non-empty, logo options only make sense with a logo.
 */
const endpointSchema = z
  .strictObject({
    schemaVersion: z.literal(1),
    label: z.string(),
    message: z.string().min(1),
    color: z.string().optional(),
    labelColor: z.string().optional(),
    isError: z.boolean().optional(),
    namedLogo: z.string().optional(),
    logoSvg: z.string().optional(),
    logoColor: z.string().optional(),
    logoSize: z.literal("auto").optional(),
    logoWidth: z.number().optional(),
    logoPosition: z.union([z.string(), z.number()]).optional(),
    style: z.enum(STYLES).optional(),
    cacheSeconds: z.number().int().min(0).optional(),
  })
  .superRefine((b, ctx) => {
    const issue = (message: string) => ctx.addIssue({ code: "custom", message });
    if (b.namedLogo !== undefined && b.logoSvg !== undefined) issue("namedLogo and logoSvg are exclusive");
    if (b.namedLogo === undefined && (b.logoColor !== undefined || b.logoSize !== undefined)) {
      issue("logoColor and logoSize need namedLogo");
    }
    if (b.namedLogo === undefined && b.logoSvg === undefined && b.logoWidth !== undefined) {
      issue("logoWidth needs a logo");
    }
  });

/** Checks a JSON value against shields' endpoint badge schema; errors read "<path>: <message>". */
export function validateEndpointBadge(json: unknown): { valid: boolean; errors: string[] } {
  const result = endpointSchema.safeParse(json);
  if (result.success) return { valid: true, errors: [] };
  return {
    valid: false,
    errors: result.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`),
  };
}
