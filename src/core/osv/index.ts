export type { OsvBuildInput, OsvEvent, OsvRecord } from "./build.ts";
export {
  buildOsvRecord,
  DEFAULT_HUB_URL,
  huggingfacePurl,
  OSV_SCHEMA_VERSION,
  openAdvisoryFromOsv,
} from "./build.ts";
export { ADVISORY_PREFIX, formatAdvisoryId, osvTimestamp, parseAdvisoryId } from "./id.ts";
export { validateOsvRecord } from "./validate.ts";
export { isWithdrawn, withdrawOsvRecord } from "./withdraw.ts";
