import type { Logger } from "pino";
import type { Config } from "../config/env.ts";
import type { Db } from "../db/types.ts";
import type { HubPort } from "./hub-port.ts";

/**
 * What every service and job handler gets: built once per process (`src/main/boot.ts`) and passed in.
 * `hub` is the Hub client seen through the narrow port the pipeline needs; `now` is injectable for tests.
 */
export type PipelineServices = {
  config: Config;
  db: Db;
  hub: HubPort;
  log: Logger;
  now: () => Date;
  /** Outbound fetch for webhook deliveries (the Hub client has its own). */
  fetch: typeof fetch;
};
