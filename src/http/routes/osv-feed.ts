import type { FastifyInstance } from "fastify";
import { renderAtom } from "../../services/http/atom.ts";
import { getVuln } from "../../services/http/osv-api.ts";
import { loadFeed } from "../../services/http/osv-feed.ts";
import { sendCached, strongEtag } from "../caching.ts";
import type { AppDeps } from "../deps.ts";
import type { ResponseCache } from "../response-cache.ts";

const ID = /^x_HUBWATCH-[0-9]{4}-[0-9]{4,}$/;
const FEED_CACHE = "public, max-age=60";

/** Bulk feed for mirrors (GET and HEAD): all.zip, modified_id.csv, {id}.json, and an Atom feed. */
export function osvFeedRoutes(deps: AppDeps, cached: ResponseCache) {
  const feed = () => cached("feed", () => loadFeed(deps.db));
  return async function routes(app: FastifyInstance) {
    app.get("/osv/all.zip", async (req, reply) => {
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
    app.get("/osv/modified_id.csv", async (req, reply) => {
      const f = await feed();
      return sendCached(req, reply, {
        body: f.csv,
        type: "text/csv; charset=utf-8",
        etag: f.etag,
        lastModified: f.lastModified,
        cacheControl: FEED_CACHE,
      });
    });
    app.get("/osv/feed.atom", async (req, reply) => {
      const f = await feed();
      const body = renderAtom(f.rows.slice(0, 200), deps.publicUrl, f.lastModified);
      return sendCached(req, reply, {
        body,
        type: "application/atom+xml; charset=utf-8",
        lastModified: f.lastModified,
        cacheControl: FEED_CACHE,
      });
    });
    app.get<{ Params: { file: string } }>("/osv/:file", async (req, reply) => {
      const id = req.params.file.replace(/\.json$/, "");
      if (!req.params.file.endsWith(".json") || !ID.test(id))
        return reply.code(404).send({ error: "not found" });
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
