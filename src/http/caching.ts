import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";

type Cached = {
  body: string | Buffer;
  type: string;
  /** Quoted strong ETag; computed from the body when absent. */
  etag?: string;
  lastModified?: Date | null;
  cacheControl?: string;
};

export function strongEtag(body: string | Buffer): string {
  return `"${createHash("sha1").update(body).digest("base64url")}"`;
}

/** Quotes a stored etag if needed, so headers are always RFC 9110 entity tags. */
export function quoteEtag(tag: string): string {
  return tag.startsWith('"') || tag.startsWith('W/"') ? tag : `"${tag}"`;
}

function notModified(req: FastifyRequest, etag: string, lastModified: Date | null | undefined): boolean {
  const inm = req.headers["if-none-match"];
  if (inm)
    return inm.split(",").some((t) => t.trim() === etag || t.trim() === `W/${etag}` || t.trim() === "*");
  const ims = req.headers["if-modified-since"];
  if (ims && lastModified) {
    const since = Date.parse(ims);
    return !Number.isNaN(since) && Math.floor(lastModified.getTime() / 1000) <= Math.floor(since / 1000);
  }
  return false;
}

/** Sends a body with ETag, Last-Modified and Cache-Control, or 304 when the client's copy is current. */
export function sendCached(req: FastifyRequest, reply: FastifyReply, c: Cached) {
  const etag = c.etag ?? strongEtag(c.body);
  reply.header("etag", etag);
  reply.header("cache-control", c.cacheControl ?? "public, max-age=300");
  if (c.lastModified) reply.header("last-modified", c.lastModified.toUTCString());
  if (notModified(req, etag, c.lastModified)) return reply.code(304).send();
  return reply.type(c.type).send(c.body);
}
