import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { parseBadgeOverrides } from "../../core/badge/index.ts";
import { badgeSvg, loadBadge } from "../../services/http/badges.ts";
import { quoteEtag, sendCached, strongEtag } from "../caching.ts";
import type { AppDeps } from "../deps.ts";
import type { ResponseCache } from "../response-cache.ts";
import { repoPart } from "../validation.ts";

const METRIC = /^([a-z0-9][a-z0-9_-]{0,79})\.(json|svg)$/;
const BAD_PATH = "expected /badges/OWNER/NAME/METRIC.json or .svg";
const BadgeParams = z.object({
  owner: repoPart(BAD_PATH),
  name: repoPart(BAD_PATH),
  file: z
    .string()
    .regex(METRIC, { error: BAD_PATH })
    .transform((file) => {
      const [, metric = "", ext] = METRIC.exec(file) ?? [];
      return { metric, ext };
    }),
});
/** SVG look overrides; a value that is not a single string is ignored, as an unknown style or colour is. */
const Override = z.string().optional().catch(undefined);
const BadgeQuery = z.object({ style: Override, label: Override, color: Override, labelColor: Override });

/** Shields endpoint JSON and ready SVG per repo and metric, with ETag/304; unknown repos get a grey badge. */
export function badgeRoutes(deps: AppDeps, cached: ResponseCache) {
  return async function routes(plain: FastifyInstance) {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    app.get(
      "/badges/:owner/:name/:file",
      { schema: { params: BadgeParams, querystring: BadgeQuery }, config: { replay: true } },
      async (req, reply) => {
        const { owner, name, file } = req.params;
        const { metric, ext } = file;
        const repo = `${owner}/${name}`;
        const badge = await cached(`badge\n${repo}\n${metric}`, () => loadBadge(deps.db, repo, metric));
        const cacheControl = `public, max-age=${Math.max(300, badge.json.cacheSeconds ?? 300)}`;
        const base = { lastModified: badge.updatedAt, cacheControl };
        // Public data meant for other sites: READMEs, shields, dashboards fetching the JSON.
        reply.header("access-control-allow-origin", "*");
        if (ext === "json") {
          // Serialised once per cached badge: a hot README badge is then headers and a string.
          badge.jsonBody ??= JSON.stringify(badge.json);
          const body = badge.jsonBody;
          badge.jsonEtag ??= badge.etag ? quoteEtag(`${badge.etag}-j`.replaceAll('"', "")) : strongEtag(body);
          const etag = badge.jsonEtag;
          return sendCached(req, reply, { ...base, body, etag, type: "application/json; charset=utf-8" });
        }
        // Opened directly, an SVG is a document: no scripts, no external loads.
        reply.header("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'");
        reply.header("x-content-type-options", "nosniff");
        const overrides = parseBadgeOverrides(req.query);
        const body = badgeSvg(badge, overrides);
        const plain = Object.keys(overrides).length === 0;
        const etag =
          badge.etag && plain ? quoteEtag(`${badge.etag}-s`.replaceAll('"', "")) : strongEtag(body);
        return sendCached(req, reply, { ...base, body, etag, type: "image/svg+xml; charset=utf-8" });
      },
    );
  };
}
