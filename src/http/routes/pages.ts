import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { loadIndex, loadRepoHistory, loadRevision } from "../../services/http/history.ts";
import { isRepoPart } from "../../services/http/parse-osv-query.ts";
import { sendCached, strongEtag } from "../caching.ts";
import type { AppDeps } from "../deps.ts";
import type { ResponseCache } from "../response-cache.ts";
import { html } from "../views/html.ts";
import { renderIndexPage } from "../views/index-page.ts";
import { layout, STYLE } from "../views/layout.ts";
import { renderRepoPage } from "../views/repo-page.ts";
import { renderRevisionPage } from "../views/revision-page.ts";

type RepoParams = { owner: string; name: string };
const SHA = /^[0-9a-f]{40}$/;

function sendPage(reply: FastifyReply, status: number, page: string) {
  return reply
    .code(status)
    .type("text/html; charset=utf-8")
    .header("content-security-policy", "default-src 'none'; style-src 'self'; img-src 'self'")
    .header("x-content-type-options", "nosniff")
    .send(page);
}

/** A rendered page, or null when what it shows does not exist. */
type Rendered = { body: string; etag: string } | null;

const rendered = (body: string): Rendered => ({ body, etag: strongEtag(body) });

/** A found page with its ETag (304 when the client's copy is current); pages change with the store. */
function sendFound(req: FastifyRequest, reply: FastifyReply, page: NonNullable<Rendered>) {
  reply
    .header("content-security-policy", "default-src 'none'; style-src 'self'; img-src 'self'")
    .header("x-content-type-options", "nosniff");
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
const badName = (reply: FastifyReply) =>
  sendPage(reply, 400, layout("Bad repo name", html`<h1>Bad repo name</h1><p>Expected OWNER/NAME.</p>`));

/** Server-rendered revision history: index, repo timeline, revision diff. No JavaScript anywhere. */
export function pageRoutes(deps: AppDeps, cached: ResponseCache) {
  return async function routes(app: FastifyInstance) {
    app.get("/static/style.css", async (req, reply) =>
      sendCached(req, reply, {
        body: STYLE,
        type: "text/css; charset=utf-8",
        cacheControl: "public, max-age=3600",
      }),
    );
    app.get("/", async (req, reply) => {
      const page = await cached("page\n/", async () => rendered(renderIndexPage(await loadIndex(deps.db))));
      return sendFound(req, reply, page as NonNullable<Rendered>);
    });
    app.get<{ Params: RepoParams }>("/repos/:owner/:name", async (req, reply) => {
      const { owner, name } = req.params;
      if (!isRepoPart(owner) || !isRepoPart(name)) return badName(reply);
      const repo = `${owner}/${name}`;
      const page = await cached(`page\n${repo}`, async () => {
        const data = await loadRepoHistory(deps.db, repo);
        return data ? rendered(renderRepoPage(data)) : null;
      });
      if (!page) return notFound(reply, `${repo} is not watched.`);
      return sendFound(req, reply, page);
    });
    app.get<{ Params: RepoParams & { sha: string } }>(
      "/repos/:owner/:name/revisions/:sha",
      async (req, reply) => {
        const { owner, name, sha } = req.params;
        if (!isRepoPart(owner) || !isRepoPart(name)) return badName(reply);
        if (!SHA.test(sha)) return notFound(reply, "No such revision.");
        const repo = `${owner}/${name}`;
        const page = await cached(`page\n${repo}\n${sha}`, async () => {
          const data = await loadRevision(deps.db, repo, sha);
          return data ? rendered(renderRevisionPage(data)) : null;
        });
        if (!page) return notFound(reply, "No such revision.");
        return sendFound(req, reply, page);
      },
    );
  };
}
