import { z } from "zod";
import { type Ctx, readBody, sendError, sendJson } from "./http-util.ts";
import type { CommitSpec, FileSpec } from "./types.ts";

/**
 * Body of `POST /_control/repos/OWNER/NAME/commits`: a revision pushed while the hub runs (the repo is
 * created when new). `files`: repo path -> text (null deletes); `safetensors`: path -> header.
 */
const PushBody = z.object({
  title: z.string().min(1),
  date: z.string().optional(),
  authors: z.array(z.string()).optional(),
  files: z.record(z.string(), z.string().nullable()).default({}),
  safetensors: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
});

const CONTROL = /^\/_control\/repos\/([^/]+)\/([^/]+)\/commits$/;

type ControlTarget = { push(repo: string, spec: CommitSpec): string };

/** True when the request was a control request (answered here); false for everything else. */
export async function handleControl(ctx: Ctx, target: ControlTarget): Promise<boolean> {
  if (!ctx.url.pathname.startsWith("/_control/")) return false;
  const m = CONTROL.exec(ctx.url.pathname);
  if (!m || ctx.req.method !== "POST") {
    sendError(ctx, 404, null, "control routes: POST /_control/repos/OWNER/NAME/commits");
    return true;
  }
  let body: z.infer<typeof PushBody>;
  try {
    body = PushBody.parse(JSON.parse(await readBody(ctx.req, 50_000_000)));
  } catch (err) {
    const why = err instanceof z.ZodError ? (err.issues[0]?.path.join(".") ?? "") : "not JSON";
    sendError(ctx, 400, null, `bad push: ${why || "invalid body"}`);
    return true;
  }
  const changes: Record<string, FileSpec | null> = {};
  for (const [path, text] of Object.entries(body.files))
    changes[path] = text === null ? null : { kind: "text", text };
  for (const [path, header] of Object.entries(body.safetensors))
    changes[path] = { kind: "safetensors", header: () => header };
  const spec: CommitSpec = {
    title: body.title,
    date: body.date ?? new Date().toISOString(),
    authors: body.authors,
    changes,
  };
  const sha = target.push(`${m[1]}/${m[2]}`, spec);
  sendJson(ctx, 201, { repo: `${m[1]}/${m[2]}`, sha });
  return true;
}
