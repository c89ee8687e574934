import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { decodeCursor, MAX_PAGE, reposJson, revisionsJson } from "../../services/http/repos-json.ts";
import type { AppDeps } from "../deps.ts";

const BAD_PATH = "expected /api/repos/OWNER/NAME/revisions";
const RepoPart = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/, { error: BAD_PATH });
const RevisionsParams = z.object({ owner: RepoPart, name: RepoPart });
const BAD_LIMIT = `limit must be a whole number from 1 to ${MAX_PAGE}`;
const PageQuery = z.object({
  limit: z.coerce
    .number({ error: BAD_LIMIT })
    .int({ error: BAD_LIMIT })
    .min(1, { error: BAD_LIMIT })
    .max(MAX_PAGE, { error: BAD_LIMIT })
    .default(20),
  // The cursor as the seq it names: the page starts below it.
  cursor: z
    .string()
    .max(100, { error: "bad cursor" })
    .transform((cursor, ctx) => {
      const seq = decodeCursor(cursor);
      if (seq === null) ctx.addIssue("bad cursor");
      return seq ?? z.NEVER;
    })
    .optional(),
});

/** Public, read-only JSON twin of the history pages (no token, like the pages it mirrors). */
export function jsonApiRoutes(deps: AppDeps) {
  return async function routes(plain: FastifyInstance) {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    app.get("/api/repos", async () => reposJson(deps.db));
    app.get(
      "/api/repos/:owner/:name/revisions",
      { schema: { params: RevisionsParams, querystring: PageQuery } },
      async (req, reply) => {
        const { owner, name } = req.params;
        const { limit, cursor: beforeSeq } = req.query;
        const page = await revisionsJson(deps.db, `${owner}/${name}`, { limit, beforeSeq });
        if (!page) return reply.code(404).send({ error: `${owner}/${name} is not watched` });
        return page;
      },
    );
  };
}
