import type { Config } from "../config/env.ts";
import { bootServices } from "../main/boot.ts";
import { baseOffer } from "../services/adapter-base-offer.ts";
import type { PipelineServices } from "../services/deps.ts";
import { listWatchedRepos, unwatchRepo, watchRepo } from "../services/watch-repos.ts";
import { type DaemonCall, refused, viaDaemon } from "./daemon-client.ts";
import { UsageError } from "./errors.ts";

type Out = { write(s: string): unknown };

/** `hubwatch migrate`: applies pending migrations to the configured store. */
export async function migrateCommand(config: Config, out: Out = process.stdout): Promise<number> {
  const booted = await bootServices(config);
  await booted.close();
  const where = booted.kind === "pg" ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${config.HUBWATCH_DATA_DIR}`;
  const { applied, total } = booted.migrations;
  const did = applied === 0 ? "nothing to apply" : `applied ${applied} migration${applied === 1 ? "" : "s"}`;
  out.write(`hubwatch: ${did}; ${where} is at migration ${total}\n`);
  return 0;
}

/**
 * `hubwatch watch add|rm|ls`. In embedded mode with `hubwatch run` holding the store, add and rm go
 * through its write API (which also queues the new repo's first poll).
 */
export async function watchCommand(
  config: Config,
  verb: "add" | "rm" | "ls",
  names: string[],
  out: Out = process.stdout,
  opts: { withBase?: boolean } = {},
) {
  const withBase = opts.withBase === true;
  if (verb === "ls") return watchInStore(config, verb, names, out, withBase);
  return viaDaemon(
    config,
    (call) => watchThroughApi(call, verb, names, out, withBase),
    () => watchInStore(config, verb, names, out, withBase),
  );
}

async function watchThroughApi(
  call: DaemonCall,
  verb: "add" | "rm",
  names: string[],
  out: Out,
  withBase: boolean,
) {
  for (const name of names) {
    const [owner = "", repo = "", ...more] = name.split("/");
    if (verb === "rm" && more.length > 0)
      throw new UsageError(`"${name}" is not a Hub model repo id (OWNER/NAME)`);
    const res =
      verb === "add"
        ? await call("POST", "/api/repos", { repo: name })
        : await call("DELETE", `/api/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`);
    if (res.status === 400) throw refused(res);
    if (verb === "add") {
      out.write(`${res.body.created ? "watching" : "already watching"} ${name}\n`);
      const base = res.body.base as { repo: string; watched: boolean } | null | undefined;
      if (base && !base.watched && withBase) await call("POST", "/api/repos", { repo: base.repo });
      if (base && !base.watched) writeOffer(out, name, base.repo, withBase);
    } else out.write(`${res.body.removed ? "stopped watching" : "was not watching"} ${name}\n`);
  }
  return 0;
}

async function watchInStore(
  config: Config,
  verb: "add" | "rm" | "ls",
  names: string[],
  out: Out,
  withBase: boolean,
) {
  const booted = await bootServices(config);
  try {
    const s = booted.services;
    if (verb === "ls") {
      for (const r of await listWatchedRepos(s)) {
        const polled = r.lastPolledAt ? r.lastPolledAt.toISOString() : "never polled";
        out.write(`${r.name}\t${r.status}\t${r.lastSeenSha?.slice(0, 12) ?? "-"}\t${polled}\n`);
      }
      return 0;
    }
    for (const name of names) {
      if (verb === "add") {
        out.write(`${(await watchRepo(s, name)) ? "watching" : "already watching"} ${name}\n`);
        await offerBase(s, name, withBase, out);
      } else out.write(`${(await unwatchRepo(s, name)) ? "stopped watching" : "was not watching"} ${name}\n`);
    }
    return 0;
  } finally {
    await booted.close();
  }
}

/** A PEFT adapter's base: watched with --with-base, else offered in one line. */
async function offerBase(s: PipelineServices, name: string, withBase: boolean, out: Out): Promise<void> {
  const offer = await baseOffer(s, name);
  if (!offer || offer.watched) return;
  if (withBase) await watchRepo(s, offer.repo);
  writeOffer(out, name, offer.repo, withBase);
}

function writeOffer(out: Out, name: string, base: string, watched: boolean): void {
  out.write(
    watched
      ? `watching ${base} (the base of ${name})\n`
      : `${name} is a PEFT adapter of ${base}; to hear when its base changes: hubwatch watch add ${base} (or add --with-base)\n`,
  );
}
