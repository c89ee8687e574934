export * as schema from "./schema/index.ts";
