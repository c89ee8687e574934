export type { OsvRecord } from "./build.ts";
export { buildOsvRecord } from "./build.ts";

export { validateOsvRecord } from "./validate.ts";
