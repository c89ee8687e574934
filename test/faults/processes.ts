/**
 * Processes the process-fault tests start and kill: hubwatch workers (real `hubwatch worker` processes),
 * a private redis-server on its own port, and a private PostgreSQL cluster on its own port, so the shared
 * 6379/5432 servers are never restarted. Each is stopped by the pid we started, never by name.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { type AddressInfo, createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import pg from "pg";

const ROOT = new URL("../../", import.meta.url).pathname;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A port nothing listens on right now (bound to 0, then released), so that test runs started at the same
 * time on one machine do not fight over a fixed port for their private Redis or PostgreSQL.
 */
export async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

async function until(what: string, ok: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await ok().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

export type Worker = {
  proc: ChildProcess;
  output: () => string;
  kill(signal?: NodeJS.Signals): Promise<void>;
};

/**
 * `hubwatch <command>` (worker, scheduler) as its own process: node + tsx register, one pid, so a
 * SIGKILL hits the worker itself and not a wrapper.
 */
export function spawnHubwatch(
  command: string,
  env: Record<string, string>,
  args: string[] = [],
  nodeArgs: string[] = [],
): Worker {
  const proc = spawn(process.execPath, [...nodeArgs, "bin/hubwatch.js", command, ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  proc.stdout?.on("data", (d) => (out += d));
  proc.stderr?.on("data", (d) => (out += d));
  return {
    proc,
    output: () => out,
    async kill(signal: NodeJS.Signals = "SIGTERM") {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((r) => proc.once("exit", r));
      proc.kill(signal);
      await Promise.race([exited, sleep(10_000)]);
    },
  };
}

type RedisServer = { url: string; stop(): Promise<void>; start(): Promise<void> };

/** A redis-server with no persistence on `port`: a restart loses every queued job. */
export async function startRedis(port: number): Promise<RedisServer> {
  let proc: ChildProcess | undefined;
  const url = `redis://127.0.0.1:${port}`;
  const ping = async () => {
    const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    r.on("error", () => {});
    try {
      await r.connect();
      return (await r.ping()) === "PONG";
    } finally {
      r.disconnect();
    }
  };
  const server: RedisServer = {
    url,
    async start() {
      proc = spawn(
        "redis-server",
        ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        {
          stdio: "ignore",
        },
      );
      await until(`redis on ${port}`, ping);
    },
    async stop() {
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((r) => proc!.once("exit", r));
      proc.kill("SIGKILL");
      await exited;
    },
  };
  await server.start();
  return server;
}

type PgCluster = {
  url: string;
  restart(): Promise<void>;
  /** Stops the server (immediate mode), keeping its data for `resume()`. */
  halt(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
};

const PG_BIN = (() => {
  try {
    return execFileSync("sh", ["-c", "ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1"])
      .toString()
      .trim();
  } catch {
    return "";
  }
})();

/** Runs a PostgreSQL binary as the postgres user when we are root (PostgreSQL refuses to run as root). */
function pgCommand(bin: string, args: string[]): string[] {
  const exe = join(PG_BIN, bin);
  return process.getuid?.() === 0 ? ["runuser", "-u", "postgres", "--", exe, ...args] : [exe, ...args];
}

function run(cmd: string[]): void {
  execFileSync(cmd[0]!, cmd.slice(1), { stdio: "pipe" });
}

/**
 * A private PostgreSQL cluster (initdb in a temp folder, trust auth) on `port`, with database `hubwatch`.
 * `restart()` is an immediate-mode restart: what a crash does to open connections and transactions.
 */
export async function startPgCluster(port: number): Promise<PgCluster> {
  if (!PG_BIN)
    throw new Error("PostgreSQL server binaries (initdb, pg_ctl) not found under /usr/lib/postgresql");
  const dir = mkdtempSync(join(tmpdir(), "hubwatch-faults-pg-"));
  if (process.getuid?.() === 0) run(["chown", "postgres", dir]);
  const data = join(dir, "data");
  run(pgCommand("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]));
  const ctl = (action: string, extra: string[] = []) =>
    run(
      pgCommand("pg_ctl", [
        "-D",
        data,
        "-w",
        "-l",
        join(dir, "log"),
        "-o",
        `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
        ...extra,
        action,
      ]),
    );
  ctl("start");
  const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query("CREATE DATABASE hubwatch");
  await admin.end();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/hubwatch`,
    async restart() {
      ctl("restart", ["-m", "immediate"]);
    },
    async halt() {
      ctl("stop", ["-m", "immediate"]);
    },
    async resume() {
      ctl("start");
    },
    async stop() {
      try {
        ctl("stop", ["-m", "immediate"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
