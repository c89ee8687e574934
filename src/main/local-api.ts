import { randomBytes } from "node:crypto";
import { readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dataDirOwner } from "../db/data-dir-lock.ts";

/**
 * How CLI writes reach an embedded daemon. PGlite lets one process open the data folder, so while
 * `hubwatch run` (or embedded `serve`) holds it, `watch add`, `hook add`, `token create` and `failed`
 * go through that process's write API. The daemon writes `hubwatch.api.json` into the folder, mode 0600:
 * its PID, the URL it answers on from this machine, and a bearer token made fresh at each start that
 * only it accepts. Whoever can read the folder can already open the store, so the token gives them
 * nothing more; the write API stays closed to everyone else.
 */
type LocalApi = { pid: number; url: string; token: string };

const FILE = "hubwatch.api.json";

export function newLocalToken(): string {
  return `hwl_${randomBytes(32).toString("base64url")}`;
}

/** A listening address as a URL this machine can call: a wildcard bind is reached on loopback. */
export function localUrl(address: { address: string; port: number; family: string }): string {
  const { address: host, port } = address;
  if (host === "0.0.0.0") return `http://127.0.0.1:${port}`;
  if (host === "::") return `http://[::1]:${port}`;
  return address.family === "IPv6" ? `http://[${host}]:${port}` : `http://${host}:${port}`;
}

/** Writes the folder's API file (atomically, 0600); the function returned removes it if still ours. */
export function publishLocalApi(dataDir: string, api: LocalApi): () => void {
  const file = join(dataDir, FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(api)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
  return () => {
    try {
      if (readLocalApi(dataDir)?.pid === api.pid) unlinkSync(file);
    } catch {
      // already gone
    }
  };
}

function readLocalApi(dataDir: string): LocalApi | null {
  try {
    const api = JSON.parse(readFileSync(join(dataDir, FILE), "utf8")) as Partial<LocalApi>;
    const ok = Number.isInteger(api.pid) && typeof api.url === "string" && typeof api.token === "string";
    return ok ? (api as LocalApi) : null;
  } catch {
    return null;
  }
}

/** The API of the live process that holds `dataDir`, or null (no daemon, or one that serves no HTTP). */
export function findLocalApi(dataDir: string): LocalApi | null {
  const api = readLocalApi(dataDir);
  return api && dataDirOwner(dataDir) === api.pid ? api : null;
}
