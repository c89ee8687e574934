import { z } from "zod";
import { DEFAULT_BEHAVIOR_RULES } from "../core/advise/behavior-rules.ts";
import { BEHAVIOR_KINDS } from "../core/diff/behavior.ts";

/** An empty variable (`DATABASE_URL=`) means unset, as it always has. */
function unsetIfEmpty<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (v === "" ? undefined : v), schema);
}

/** Every setting hubwatch reads from the environment, parsed once at process start and passed down. */
export const Env = z.object({
  HF_ENDPOINT: z
    .string()
    .url()
    .default("https://huggingface.co")
    .describe("The Hub's address, as in huggingface_hub."),
  HF_TOKEN: z
    .string()
    .min(1)
    .optional()
    .describe("Token for gated or private repos; sent as a Bearer token."),
  HUBWATCH_HUB_BUDGET: z
    .string()
    .regex(/^\d+\/\d+$/, "REQUESTS/SECONDS, e.g. 1000/300")
    .default("1000/300")
    .describe(
      "Hub API requests allowed per window (a free user's quota: 1,000 per 5 minutes); spent evenly.",
    ),
  HUBWATCH_RESOLVER_BUDGET: z
    .string()
    .regex(/^\d+\/\d+$/, "REQUESTS/SECONDS, e.g. 5000/300")
    .default("5000/300")
    .describe("Hub file (resolve) requests allowed per window (a free user's: 5,000 per 5 minutes)."),
  HUBWATCH_BACKFILL_DEPTH: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(100)
    .describe("Newest commits recorded on a first watch; older history is recorded as skipped."),
  HUBWATCH_MAX_HEADER_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(100_000_000)
    .describe("Largest safetensors header read (the format's 100 MB limit; huggingface_hub uses 25 MB)."),
  DATABASE_URL: unsetIfEmpty(
    z
      .string()
      .regex(/^postgres(ql)?:\/\/\S+$/, "expected a postgres:// or postgresql:// URL")
      .optional(),
  ).describe("postgres:// URL for distributed mode. Unset: embedded PGlite in HUBWATCH_DATA_DIR."),
  REDIS_URL: unsetIfEmpty(
    z
      .string()
      .regex(/^rediss?:\/\/\S+$/, "expected a redis:// or rediss:// URL")
      .optional(),
  ).describe("redis:// URL for BullMQ in distributed mode. Unset: in-process runner."),
  HUBWATCH_DATA_DIR: unsetIfEmpty(z.string().default(".hubwatch")).describe(
    "Where embedded mode keeps its PGlite database.",
  ),
  HUBWATCH_POLL_CRON: z
    .string()
    .default("*/15 * * * *")
    .describe("How often the scheduler polls watched repos."),
  HUBWATCH_RELAY_CRON: z
    .string()
    .default("*/5 * * * * *")
    .describe(
      "How often the webhook outbox relay queues due and stranded deliveries (seconds field allowed).",
    ),
  HUBWATCH_QUEUE_PREFIX: z.string().default("hubwatch").describe("BullMQ key prefix, to share one Redis."),
  HUBWATCH_WORKER_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(256)
    .default(4)
    .describe(
      "Jobs one worker process (or the embedded runner) runs at once per queue; one per repo at a time.",
    ),
  HUBWATCH_START_TIMEOUT_S: z.coerce
    .number()
    .min(0)
    .max(3600)
    .default(30)
    .describe("How long a starting process retries an unreachable PostgreSQL or Redis before exiting 1."),
  HUBWATCH_HEALTH_PORT: unsetIfEmpty(z.coerce.number().int().min(0).max(65535).optional()).describe(
    "worker and scheduler: serve /healthz, /readyz and /metrics on this port (HOST address).",
  ),
  HOST: z.string().default("127.0.0.1"),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  PUBLIC_URL: z
    .string()
    .url()
    .optional()
    .describe("Base URL the server is reached at, for links in feeds and badges."),
  HUB_WEBHOOK_SECRET: z
    .string()
    .optional()
    .describe("Secret expected in X-Webhook-Secret on POST /hooks/hub."),
  HUBWATCH_ALLOW_PRIVATE_WEBHOOKS: z
    .enum(["0", "1", "true", "false"])
    .default("0")
    .transform((v) => v === "1" || v === "true")
    .describe("Allow webhook targets on private, loopback or link-local addresses (tests only)."),
  HUBWATCH_BEHAVIOR_ADVISORIES: z
    .string()
    .default(DEFAULT_BEHAVIOR_RULES.join(","))
    .transform((v) =>
      v.trim() === "none"
        ? []
        : v
            .split(",")
            .map((k) => k.trim())
            .filter(Boolean),
    )
    .pipe(z.array(z.enum(BEHAVIOR_KINDS)))
    .describe("Behaviour change kinds that open advisories (comma-separated, or none)."),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

export type Config = Readonly<z.infer<typeof Env>>;

/** Parses the environment once; throws an error naming each bad variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`hubwatch: bad configuration:\n${lines.join("\n")}`);
  }
  return Object.freeze(parsed.data);
}
