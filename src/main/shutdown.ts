/**
 * Runs `stop` once on the first SIGTERM or SIGINT (a second signal exits at once), then exits 0.
 * Workers finish their running jobs in `stop` (BullMQ's worker.close() waits for them).
 */
export function onShutdown(stop: () => Promise<void>, log: (msg: string) => void = () => {}): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(130);
    stopping = true;
    log(`${signal}: finishing running jobs, then exiting`);
    stop()
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        log(`shutdown failed: ${err instanceof Error ? err.message : String(err)}`);
        process.exit(1);
      });
  };
  process.on("SIGTERM", handler);
  process.on("SIGINT", handler);
}
