import type { Config } from "../config/env.ts";
import { bootServices } from "../main/boot.ts";

/** Opens the store (migrated) for one command and closes it after, whatever `fn` did. */
export async function withStore<T>(
  config: Config,
  fn: (s: Awaited<ReturnType<typeof bootServices>>) => Promise<T>,
) {
  const booted = await bootServices(config);
  try {
    return await fn(booted);
  } finally {
    await booted.close();
  }
}
