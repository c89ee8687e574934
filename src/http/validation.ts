import type { FastifyError, FastifyInstance, FastifySchemaValidationError } from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { z } from "zod";
import { isRepoPart } from "../services/http/parse-osv-query.ts";

/**
 * Route input is checked by zod schemas (fastify-type-provider-zod) on params, querystrings and bodies.
 * A failed check is an input error: 400 (or the status a route's formatter sets) with the schema's own
 * message for its first issue, so the schemas carry the messages clients see.
 */
export function useZodSchemas(app: FastifyInstance): void {
  app.setValidatorCompiler(validatorCompiler);
  // Used only by routes that declare response schemas; none does, so no response changes.
  app.setSerializerCompiler(serializerCompiler);
}

/** The schema's message for the first issue, as the error the app's error handler answers with. */
export function firstIssueMessage(errors: FastifySchemaValidationError[]): Error {
  return new Error(errors[0]?.message ?? "Invalid input");
}

/** A schema error formatter for routes where input that cannot name anything is a 404 with `message`. */
export function notFoundOnInvalid(message: string) {
  return (): Error => Object.assign(new Error(message), { statusCode: 404 });
}

/** The top-level fields (param, query or body keys) that failed their schema; null for any other error. */
export function invalidFields(err: FastifyError): string[] | null {
  if (!err.validation) return null;
  return err.validation.map((v) => v.instancePath.split("/")[1] ?? "");
}

/** An OWNER or NAME path segment as the Hub spells them (no `..`). */
export const repoPart = (error: string) => z.string().refine(isRepoPart, { error });
