import type { IncomingMessage, ServerResponse } from "node:http";

export type Ctx = {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** Absolute origin of this server as the client addressed it, for Link headers. */
  origin: string;
};

export function sendJson(
  ctx: Ctx,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = Buffer.from(JSON.stringify(body));
  ctx.res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": String(text.length),
    ...headers,
  });
  ctx.res.end(ctx.req.method === "HEAD" ? undefined : text);
}

/** Hub-style error: JSON body `{error}` plus X-Error-Code / X-Error-Message headers. */
export function sendError(ctx: Ctx, status: number, code: string | null, message: string): void {
  const headers: Record<string, string> = { "X-Error-Message": message };
  if (code) headers["X-Error-Code"] = code;
  if (status === 401) headers["WWW-Authenticate"] = 'Bearer realm="Authentication required", charset="UTF-8"';
  sendJson(ctx, status, { error: message }, headers);
}

export async function readBody(req: IncomingMessage, limit = 1_000_000): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new Error("body too large");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Parses a single `bytes=a-b`, `bytes=a-` or `bytes=-n` range; null when absent, "invalid" when unsatisfiable. */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | "invalid" {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === "" && m[2] === "")) return "invalid";
  if (m[1] === "") {
    const n = Number(m[2]);
    return n === 0 ? "invalid" : { start: Math.max(0, size - n), end: size };
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? size : Math.min(size, Number(m[2]) + 1);
  if (start >= size || end <= start) return "invalid";
  return { start, end };
}
