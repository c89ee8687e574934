import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { renderAtom } from "../../services/http/atom.ts";
import { getVuln } from "../../services/http/osv-api.ts";
import { loadFeed } from "../../services/http/osv-feed.ts";
import { sendCached, strongEtag } from "../caching.ts";
import type { AppDeps } from "../deps.ts";
import type { ResponseCache } from "../response-cache.ts";
import { notFoundOnInvalid } from "../validation.ts";

/** `{id}.json` for an advisory id of ours; the route answers with the id. Anything else names nothing: 404. */
const RecordFile = z.object({
  file: z
    .string()
    .regex(/^x_HUBWATCH-[0-9]{4}-[0-9]{4,}\.json$/)
    .transform((file) => file.slice(0, -".json".length)),
});
const FEED_CACHE = "public, max-age=60";
/** Every feed file is answered whole from the replay cache while the store is unchanged. */
const REPLAY = { config: { replay: true } };

/** Bulk feed for mirrors (GET and HEAD): all.zip, modified_id.csv, {id}.json, and an Atom feed. */
export function osvFeedRoutes(deps: AppDeps, cached: ResponseCache) {
  const feed = () => cached("feed", () => loadFeed(deps.db));
  return async function routes(plain: FastifyInstance) {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    app.get("/osv/all.zip", REPLAY, async (req, reply) => {
      const f = await feed();
      reply.header("content-disposition", 'attachment; filename="all.zip"');
      return sendCached(req, reply, {
        body: f.zip,
        type: "application/zip",
        etag: f.etag,
        lastModified: f.lastModified,
        cacheControl: FEED_CACHE,
      });
    });
    app.get("/osv/modified_id.csv", REPLAY, async (req, reply) => {
      const f = await feed();
      return sendCached(req, reply, {
        body: f.csv,
        type: "text/csv; charset=utf-8",
        etag: f.etag,
        lastModified: f.lastModified,
        cacheControl: FEED_CACHE,
      });
    });
    app.get("/osv/feed.atom", REPLAY, async (req, reply) => {
      const f = await feed();
      const body = renderAtom(f.rows.slice(0, 200), deps.publicUrl, f.lastModified);
      return sendCached(req, reply, {
        body,
        type: "application/atom+xml; charset=utf-8",
        lastModified: f.lastModified,
        cacheControl: FEED_CACHE,
      });
    });
    const recordRoute = {
      schema: { params: RecordFile },
      schemaErrorFormatter: notFoundOnInvalid("not found"),
      ...REPLAY,
    };
    app.get("/osv/:file", recordRoute, async (req, reply) => {
      const id = req.params.file;
      const record = await cached(`vuln\n${id}`, () => getVuln(deps.db, id));
      if (!record) return reply.code(404).send({ error: "not found" });
      const body = JSON.stringify(record, null, 2);
      return sendCached(req, reply, {
        body,
        type: "application/json; charset=utf-8",
        etag: strongEtag(body),
        lastModified: new Date(record.modified),
        cacheControl: FEED_CACHE,
      });
    });
  };
}
