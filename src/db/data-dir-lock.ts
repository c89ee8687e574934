import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";

/**
 * PGlite is single-process: a second process opening the same folder would read a stale snapshot or
 * abort inside WASM. The first process to open a folder writes `hubwatch.pid` there (created exclusively);
 * a later one finds it, and if that PID is alive, is refused with one line naming it. A lock left by a
 * process that died is taken over. Opens within one process share the lock (counted).
 */
class DataDirInUseError extends Error {
  override name = "DataDirInUseError";
}

const held = new Map<string, number>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function ownerOf(file: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(file, "utf8"), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** The live process holding the folder's lock, or null when none does. */
export function dataDirOwner(dir: string): number | null {
  const owner = ownerOf(join(dir, "hubwatch.pid"));
  return owner !== null && alive(owner) ? owner : null;
}

/** Takes the folder's lock or throws DataDirInUseError; returns the release function. */
export function lockDataDir(dir: string): () => void {
  const file = join(dir, "hubwatch.pid");
  const count = held.get(file) ?? 0;
  if (count === 0) {
    for (let attempt = 0; ; attempt++) {
      try {
        const fd = openSync(file, "wx");
        writeSync(fd, `${process.pid}\n`);
        closeSync(fd);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
        const owner = ownerOf(file);
        if (owner !== null && owner !== process.pid && alive(owner))
          throw new DataDirInUseError(
            `hubwatch: ${dir} is in use by process ${owner} (hubwatch run or serve); stop it, use its HTTP API, or set another HUBWATCH_DATA_DIR`,
          );
        if (attempt > 0) throw err;
        unlinkSync(file); // left by a process that is gone
      }
    }
  }
  held.set(file, count + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (held.get(file) ?? 1) - 1;
    if (left > 0) return void held.set(file, left);
    held.delete(file);
    try {
      if (ownerOf(file) === process.pid) unlinkSync(file);
    } catch {
      // already gone
    }
  };
}
