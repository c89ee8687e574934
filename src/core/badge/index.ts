export type { BadgeFitRow, BadgeInput } from "./build.ts";
export { buildBadges, DEFAULT_CACHE_SECONDS, fitMetric, notWatchedBadge, slug } from "./build.ts";
export { formatParams } from "./format.ts";
export { renderBadgeSvg } from "./render.ts";
export type { EndpointBadge } from "./types.ts";
export { validateEndpointBadge } from "./validate.ts";
