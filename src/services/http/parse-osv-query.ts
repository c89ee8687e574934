import { PackageURL } from "packageurl-js";
/**
 * Parses an OSV.dev-shaped query body (POST /v1/query, one entry of /v1/querybatch) into what
 * hubwatch can answer: a Hub repo, optionally at a commit. Errors carry OSV.dev's gRPC status
 * (3 = INVALID_ARGUMENT) and are sent as HTTP 400 {code, message}.
 */
export type OsvQuery =
  | {
      kind: "repo";
      owner: string;
      name: string;
      commit: string | null;
      pageToken: string | null;
      /** For GIT queries: the clone URL asked about (normalized), matched against affected[].package.name. */
      gitUrl?: string;
    }
  | { kind: "commit"; commit: string; pageToken: string | null }
  /** A well-formed query for something hubwatch never tracks (another ecosystem): no vulns. */
  | { kind: "none" };

export class OsvQueryError extends Error {
  readonly code = 3;
}

const REPO_PART = /^[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/;
const HEX40 = /^[0-9a-f]{40}$/;
// Any hub (huggingface.co, a mirror, the replay hub): the last two path segments are OWNER/NAME.
const HUB_URL = /^(https?:\/\/[^/?#]+(?:\/[^/?#]+)*?)\/([^/?#]+)\/([^/?#]+?)(?:\.git)?\/?$/;

/** Accepts owner/name as the Hub spells them; refuses `..` and anything outside the Hub's charset. */
export function isRepoPart(part: string): boolean {
  return REPO_PART.test(part) && !part.includes("..");
}

function str(v: unknown, field: string): string | null {
  if (v === undefined || v === null || v === "") return null;
  if (typeof v !== "string") throw new OsvQueryError(`${field} must be a string`);
  return v;
}

function commitOf(v: string): string {
  const c = v.toLowerCase();
  if (!HEX40.test(c)) throw new OsvQueryError("Invalid hash. Hashes must be 40 hexadecimal characters.");
  return c;
}

type PurlParts = { type: string; owner: string; name: string; version: string | null };

/** A purl by packageurl-js (spec-conformant decoding); anything it refuses is the caller's mistake (400). */
function parsePurl(purl: string): PurlParts {
  let p: PackageURL;
  try {
    p = PackageURL.fromString(purl);
  } catch {
    throw new OsvQueryError("Invalid Package URL.");
  }
  return { type: p.type.toLowerCase(), owner: p.namespace ?? "", name: p.name, version: p.version ?? null };
}

function repo(
  owner: string,
  name: string,
  commit: string | null,
  pageToken: string | null,
  gitUrl?: string,
): OsvQuery {
  if (!isRepoPart(owner) || !isRepoPart(name)) return { kind: "none" };
  return gitUrl
    ? { kind: "repo", owner, name, commit, pageToken, gitUrl }
    : { kind: "repo", owner, name, commit, pageToken };
}

/** A clone URL without `.git` or a trailing slash, for comparing package names. */
export function normalizeGitUrl(url: string): string {
  return url.replace(/\/+$/, "").replace(/\.git$/, "");
}

export function parseOsvQuery(body: unknown): OsvQuery {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new OsvQueryError("Invalid query: expected a JSON object.");
  }
  const q = body as Record<string, unknown>;
  const pkg = (q.package ?? {}) as Record<string, unknown>;
  if (typeof pkg !== "object" || Array.isArray(pkg)) throw new OsvQueryError("package must be an object");
  const version = str(q.version, "version");
  const commitRaw = str(q.commit, "commit");
  const pageToken = str(q.page_token, "page_token");
  const purl = str(pkg.purl, "package.purl");
  const name = str(pkg.name, "package.name");
  const ecosystem = str(pkg.ecosystem, "package.ecosystem");
  if (commitRaw && version) throw new OsvQueryError("Only one of commit or version may be specified.");
  if (purl && (name || ecosystem)) {
    throw new OsvQueryError("name/ecosystem specified in a PURL query.");
  }
  if (purl) {
    const p = parsePurl(purl);
    if (p.version && version) throw new OsvQueryError("version specified in params and PURL query.");
    if (p.version && commitRaw) throw new OsvQueryError("commit specified in params and PURL query.");
    if (p.type !== "huggingface") return { kind: "none" };
    const v = p.version ?? version ?? commitRaw;
    return repo(p.owner, p.name, v ? commitOf(v) : null, pageToken);
  }
  if (name || ecosystem) {
    if (!name) throw new OsvQueryError("package.name is required with package.ecosystem.");
    if (ecosystem && ecosystem !== "GIT") return { kind: "none" };
    const m = HUB_URL.exec(name);
    if (!m) return { kind: "none" };
    // GIT versions are tag names; Hub repos are tracked by commit only, so a hash is the one usable version.
    const v = commitRaw ?? (version && HEX40.test(version.toLowerCase()) ? version : null);
    if (version && !v) return { kind: "none" };
    return repo(m[2] ?? "", m[3] ?? "", v ? commitOf(v) : null, pageToken, normalizeGitUrl(name));
  }
  if (commitRaw) return { kind: "commit", commit: commitOf(commitRaw), pageToken };
  if (version) throw new OsvQueryError("version requires a package.");
  throw new OsvQueryError("Invalid query: give a package (purl or name/ecosystem) or a commit.");
}
