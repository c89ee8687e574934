export { createDatabase, type DatabaseOptions } from "./client.ts";
export { migrateDatabase, migrationsFolder } from "./migrate.ts";
export * as schema from "./schema/index.ts";
export type { DatabaseHandle, Db, DbKind, Executor, Schema, Tx } from "./types.ts";
