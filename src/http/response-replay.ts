import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestAsyncHookHandler,
  onSendAsyncHookHandler,
} from "fastify";

/**
 * Whole-response replay for the public GET routes that declare `config: { replay: true }` (badges, pages,
 * feeds, OSV records): the first 200 answer at a store generation is kept as its headers and a Buffer
 * body, and later requests for the same URL at that generation get it back from the onRequest hook,
 * without parsing, validation, a handler or a body encoding per request. A hot README badge or history
 * page then costs little more than a bare route. Keyed on protocol, host and URL (the pages' absolute links
 * come from the Host when no public URL is set). Conditional requests (If-None-Match, If-Modified-Since)
 * go to the route, which answers 304 itself. Without a generation nothing is replayed.
 */
type Replay = { generation: number; headers: Record<string, string>; body: Buffer };

/** Kept bodies in all, per process: the oldest entries go first past it (URLs with junk queries churn). */
const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;
/** Bodies above this size are not kept (the feed zip of a large store). */
const MAX_BODY_BYTES = 512 * 1024;

declare module "fastify" {
  interface FastifyContextConfig {
    /** Cache this route's 200 answers whole per store generation (src/http/response-replay.ts). */
    replay?: boolean;
  }
}

const keyOf = (req: FastifyRequest) => `${req.protocol}://${req.host}${req.url}`;

function replayable(req: FastifyRequest): boolean {
  return (
    req.method === "GET" &&
    req.headers["if-none-match"] === undefined &&
    req.headers["if-modified-since"] === undefined
  );
}

/** The reply's headers as strings, without Content-Length (Fastify sets it from the Buffer). */
function storedHeaders(reply: FastifyReply): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (name === "content-length" || value === undefined) continue;
    out[name] = Array.isArray(value) ? value.join(", ") : String(value);
  }
  return out;
}

/**
 * Sends a kept answer. Headers set for this request by earlier hooks (the rate limit's remaining count and
 * reset) stay as they are; the kept ones fill in the rest.
 */
function replayTo(reply: FastifyReply, kept: Replay) {
  for (const [name, value] of Object.entries(kept.headers))
    if (!reply.hasHeader(name)) reply.header(name, value);
  return reply.code(200).send(kept.body);
}

/** Kept answers by key, in insertion order, with the sum of their body sizes. */
type Kept = { entries: Map<string, Replay>; bytes: number };

/** Sets `key`, then drops the oldest entries until the bodies fit `maxBytes`. */
function keepWithin(kept: Kept, key: string, entry: Replay, maxBytes: number) {
  const old = kept.entries.get(key);
  if (old) kept.bytes -= old.body.length;
  kept.entries.delete(key);
  kept.entries.set(key, entry);
  kept.bytes += entry.body.length;
  for (const [oldest, e] of kept.entries) {
    if (kept.bytes <= maxBytes) break;
    kept.entries.delete(oldest);
    kept.bytes -= e.body.length;
  }
}

/** A route's own hooks of one kind as a list, to add ours after them (the rate limit's come first). */
const asList = <T>(hooks: T | T[] | undefined): T[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];

/**
 * Gives every route declared with `config: { replay: true }` the replay hooks, as route hooks added after
 * the rate limit's (registered before this), so a replayed answer is still counted and limited per IP.
 */
export function registerResponseReplay(
  app: FastifyInstance,
  generation: (() => number | null) | undefined,
  maxBytes = DEFAULT_MAX_BYTES,
): void {
  if (!generation) return;
  const kept: Kept = { entries: new Map(), bytes: 0 };
  const seenAt = new WeakMap<FastifyRequest, number>();
  const replayKept: onRequestAsyncHookHandler = async (req, reply) => {
    if (!replayable(req)) return;
    const at = generation();
    if (at === null) return;
    const hit = kept.entries.get(keyOf(req));
    if (hit?.generation === at) return replayTo(reply, hit);
    seenAt.set(req, at);
  };
  const keep: onSendAsyncHookHandler<unknown> = async (req, reply, payload) => {
    const at = seenAt.get(req);
    // Kept only when the store did not move while the answer was computed.
    if (at === undefined || reply.statusCode !== 200 || generation() !== at) return payload;
    if (typeof payload !== "string" && !Buffer.isBuffer(payload)) return payload;
    const body = typeof payload === "string" ? Buffer.from(payload) : payload;
    if (body.length > MAX_BODY_BYTES) return payload;
    keepWithin(kept, keyOf(req), { generation: at, headers: storedHeaders(reply), body }, maxBytes);
    return body;
  };
  app.addHook("onRoute", (route) => {
    if (route.config?.replay !== true) return;
    route.onRequest = [...asList(route.onRequest), replayKept];
    route.onSend = [...asList(route.onSend), keep];
  });
}
