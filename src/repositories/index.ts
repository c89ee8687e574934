// The only code that builds SQL. Every function takes a Db or a transaction first.
export * from "./advisories.repository.ts";
export * from "./api-tokens.repository.ts";
export * from "./artifacts.repository.ts";
export * from "./badges.repository.ts";
export * from "./behavior-changes.repository.ts";
export * from "./changes.repository.ts";
export * from "./estimates.repository.ts";
export * from "./estimator-drift.repository.ts";
export * from "./findings.repository.ts";
export * from "./raw.ts";
export * from "./repos.repository.ts";
export * from "./revision-files.repository.ts";
export * from "./revisions.repository.ts";
export * from "./transaction.ts";
export * from "./webhook-deliveries.repository.ts";
export * from "./webhooks.repository.ts";
