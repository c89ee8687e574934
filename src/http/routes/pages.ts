import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { loadIndex, loadRepoHistory, loadRevision } from "../../services/http/history.ts";
import { loadRecent, RecentKind } from "../../services/http/recent.ts";
import { sendCached, strongEtag } from "../caching.ts";
import type { AppDeps } from "../deps.ts";
import type { ResponseCache } from "../response-cache.ts";
import { invalidFields, repoPart } from "../validation.ts";
import { FAVICON_SVG } from "../views/favicon.ts";
import { html } from "../views/html.ts";
import { renderIndexPage } from "../views/index-page.ts";
import { layout, STYLE } from "../views/layout.ts";
import { renderRepoPage } from "../views/repo-page.ts";
import { renderRevisionPage } from "../views/revision-page.ts";

// Which page a failed check shows is chosen by the field that failed (see onInvalidInput).
const IndexQuery = z.object({ kind: RecentKind.default("all") });
const RepoParams = z.object({ owner: repoPart("bad name"), name: repoPart("bad name") });
const Sha = z.string().regex(/^[0-9a-f]{40}$/);
const RevisionParams = RepoParams.extend({ sha: Sha });
/** `before`: the sha the page starts below (keyset pagination of a repo's history). */
const HistoryQuery = z.object({ before: Sha.optional() });

/** Pages run no script and load only our stylesheet and images (charts are inline SVG). */
const PAGE_CSP = "default-src 'none'; style-src 'self'; img-src 'self'";

function sendPage(reply: FastifyReply, status: number, page: string) {
  return reply
    .code(status)
    .type("text/html; charset=utf-8")
    .header("content-security-policy", PAGE_CSP)
    .header("x-content-type-options", "nosniff")
    .send(page);
}

/** A rendered page, or null when what it shows does not exist. */
type Rendered = { body: string; etag: string } | null;

const rendered = (body: string): Rendered => ({ body, etag: strongEtag(body) });

/** A found page with its ETag (304 when the client's copy is current); pages change with the store. */
function sendFound(req: FastifyRequest, reply: FastifyReply, page: NonNullable<Rendered>) {
  reply.header("content-security-policy", PAGE_CSP).header("x-content-type-options", "nosniff");
  return sendCached(req, reply, {
    body: page.body,
    etag: page.etag,
    type: "text/html; charset=utf-8",
    cacheControl: "no-cache",
  });
}

const notFound = (reply: FastifyReply, what: string) =>
  sendPage(
    reply,
    404,
    layout("Not found", html`<h1>Not found</h1><p>${what}</p><p><a href="/">All repos</a></p>`),
  );
const notWatched = (reply: FastifyReply, repo: string) =>
  sendPage(
    reply,
    404,
    layout(
      "Not watched",
      html`<h1>Not watched</h1><p><code>${repo}</code> is not watched here, so there is no history to show.</p>
<p>Start watching it with <code>hubwatch watch add ${repo}</code>.</p><p><a href="/">All repos</a></p>`,
    ),
  );
const badName = (reply: FastifyReply) =>
  sendPage(reply, 400, layout("Bad repo name", html`<h1>Bad repo name</h1><p>Expected OWNER/NAME.</p>`));
const badFilter = (reply: FastifyReply) =>
  sendPage(
    reply,
    400,
    layout(
      "Bad filter",
      html`<h1>Bad filter</h1><p>Unknown kind.</p><p><a href="/">All recent changes</a></p>`,
    ),
  );

/** Input that fails a page's schema gets an HTML page; any other error goes on to the app's handler. */
function onInvalidInput(err: FastifyError, _req: FastifyRequest, reply: FastifyReply) {
  const fields = invalidFields(err);
  if (!fields) throw err;
  if (fields.includes("owner") || fields.includes("name")) return badName(reply);
  if (fields.includes("sha") || fields.includes("before"))
    return notFound(reply, "A revision is a full 40-character commit sha.");
  return badFilter(reply);
}

/** Server-rendered revision history: index, repo timeline, revision diff. No JavaScript anywhere. */
export function pageRoutes(deps: AppDeps, cached: ResponseCache) {
  return async function routes(plain: FastifyInstance) {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    app.setErrorHandler(onInvalidInput);
    app.get("/static/style.css", async (req, reply) =>
      sendCached(req, reply, {
        body: STYLE,
        type: "text/css; charset=utf-8",
        cacheControl: "public, max-age=3600",
      }),
    );
    // Chromium and Firefox read an SVG served at /favicon.ico too; the pages link /favicon.svg.
    for (const path of ["/favicon.svg", "/favicon.ico"])
      app.get(path, async (req, reply) =>
        sendCached(req, reply, {
          body: FAVICON_SVG,
          type: "image/svg+xml",
          cacheControl: "public, max-age=86400",
        }),
      );
    app.get("/", { schema: { querystring: IndexQuery }, config: { replay: true } }, async (req, reply) => {
      const { kind } = req.query;
      const page = await cached(`page\n/\n${kind}`, async () => {
        const [repos, recent] = await Promise.all([loadIndex(deps.db), loadRecent(deps.db, kind)]);
        return rendered(renderIndexPage(repos, recent));
      });
      return sendFound(req, reply, page as NonNullable<Rendered>);
    });
    app.get(
      "/repos/:owner/:name",
      { schema: { params: RepoParams, querystring: HistoryQuery }, config: { replay: true } },
      async (req, reply) => {
        const { owner, name } = req.params;
        const { before } = req.query;
        const repo = `${owner}/${name}`;
        const origin = deps.publicUrl?.replace(/\/$/, "") ?? `${req.protocol}://${req.host}`;
        const page = await cached(`page\n${repo}\n${origin}\n${before ?? ""}`, async () => {
          const data = await loadRepoHistory(deps.db, repo, before);
          return data.missing ? data.missing : rendered(renderRepoPage({ ...data, origin }));
        });
        if (page === "repo") return notWatched(reply, repo);
        if (page === "revision" || page === null)
          return notFound(reply, `No revision ${before?.slice(0, 12)} is recorded for ${repo}.`);
        return sendFound(req, reply, page);
      },
    );
    app.get(
      "/repos/:owner/:name/revisions/:sha",
      { schema: { params: RevisionParams }, config: { replay: true } },
      async (req, reply) => {
        const { owner, name, sha } = req.params;
        const repo = `${owner}/${name}`;
        const page = await cached(`page\n${repo}\n${sha}`, async () => {
          const data = await loadRevision(deps.db, repo, sha);
          return data ? rendered(renderRevisionPage(data)) : null;
        });
        if (!page) return notFound(reply, `No revision ${sha.slice(0, 12)} is recorded for ${repo}.`);
        return sendFound(req, reply, page);
      },
    );
  };
}
