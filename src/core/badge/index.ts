export type { BadgeFitRow, BadgeInput } from "./build.ts";
export { buildBadges, DEFAULT_CACHE_SECONDS, fitMetric, notWatchedBadge, slug } from "./build.ts";
export { formatParams } from "./format.ts";
export {
  BADGE_STYLES,
  type BadgeOverrides,
  type BadgeStyle,
  parseBadgeOverrides,
  renderBadgeSvg,
} from "./render.ts";
export { isKnownMetric, missingBadge } from "./states.ts";
export type { EndpointBadge } from "./types.ts";
export { validateEndpointBadge } from "./validate.ts";
