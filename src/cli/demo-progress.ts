import cliProgress from "cli-progress";
import type { Db } from "../db/types.ts";
import { progressCounts } from "./demo-report.ts";

type Out = NodeJS.WriteStream | { write(s: string): unknown; isTTY?: boolean };

/**
 * Shows revisions processed while `work` runs: a cli-progress bar on a terminal, plain lines
 * ("processed 12/28 revisions") otherwise. The total grows as polls discover revisions.
 */
export async function withProgress<T>(db: Db, out: Out, label: string, work: () => Promise<T>): Promise<T> {
  const tty = Boolean((out as { isTTY?: boolean }).isTTY);
  const bar = tty
    ? new cliProgress.SingleBar(
        {
          format: `${label} [{bar}] {value}/{total} revisions`,
          stream: out as NodeJS.WriteStream,
          hideCursor: true,
        },
        cliProgress.Presets.shades_classic,
      )
    : null;
  let last = "";
  let stopped = false;
  const tick = async () => {
    const { settled, total } = await progressCounts(db);
    if (bar) {
      if (!bar.isActive) bar.start(Math.max(total, 1), settled);
      bar.setTotal(Math.max(total, 1));
      bar.update(settled);
      return;
    }
    const line = `${label}: ${settled}/${total} revisions`;
    if (line !== last && total > 0) out.write(`${line}\n`);
    last = line;
  };
  const loop = (async () => {
    while (!stopped) {
      await tick();
      await new Promise((r) => setTimeout(r, tty ? 150 : 1000));
    }
  })();
  try {
    return await work();
  } finally {
    stopped = true;
    await loop;
    await tick();
    bar?.stop();
  }
}
