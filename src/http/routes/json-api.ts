import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { decodeCursor, MAX_PAGE, reposJson, revisionsJson } from "../../services/http/repos-json.ts";
import type { AppDeps } from "../deps.ts";

const RepoPart = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/);
const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE).default(20),
  cursor: z.string().max(100).optional(),
});

/** Public, read-only JSON twin of the history pages (no token, like the pages it mirrors). */
export function jsonApiRoutes(deps: AppDeps) {
  return async function routes(app: FastifyInstance) {
    app.get("/api/repos", async () => reposJson(deps.db));
    app.get<{ Params: { owner: string; name: string } }>(
      "/api/repos/:owner/:name/revisions",
      async (req, reply) => {
        const { owner, name } = req.params;
        if (!RepoPart.safeParse(owner).success || !RepoPart.safeParse(name).success)
          return reply.code(400).send({ error: "expected /api/repos/OWNER/NAME/revisions" });
        const q = PageQuery.safeParse(req.query);
        if (!q.success) return reply.code(400).send({ error: z.prettifyError(q.error) });
        const beforeSeq = q.data.cursor === undefined ? undefined : decodeCursor(q.data.cursor);
        if (beforeSeq === null) return reply.code(400).send({ error: "bad cursor" });
        const page = await revisionsJson(deps.db, `${owner}/${name}`, { limit: q.data.limit, beforeSeq });
        if (!page) return reply.code(404).send({ error: `${owner}/${name} is not watched` });
        return page;
      },
    );
  };
}
