export { buildBadges, notWatchedBadge } from "./build.ts";

export {
  type BadgeOverrides,
  parseBadgeOverrides,
  renderBadgeSvg,
} from "./render.ts";
export { missingBadge } from "./states.ts";
export type { EndpointBadge } from "./types.ts";
export { validateEndpointBadge } from "./validate.ts";
