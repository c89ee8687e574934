// Every table, one file each; drizzle-kit reads this file (drizzle.config.ts) to generate migrations.
export * from "./advisories.ts";
export * from "./advisory-counters.ts";
export * from "./api-tokens.ts";
export * from "./artifacts.ts";
export * from "./badges.ts";
export * from "./behavior-changes.ts";
export * from "./changes.ts";
export * from "./estimates.ts";
export * from "./estimator-drift.ts";
export * from "./findings.ts";
export * from "./repos.ts";
export * from "./revision-files.ts";
export * from "./revisions.ts";
export * from "./webhook-attempts.ts";
export * from "./webhook-deliveries.ts";
export * from "./webhook-events.ts";
export * from "./webhook-subscriptions.ts";
