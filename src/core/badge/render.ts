import { makeBadge } from "badge-maker";
import type { EndpointBadge } from "./types.ts";

/** The badge as an SVG string (flat style); badge-maker escapes label and message. */
export function renderBadgeSvg(badge: EndpointBadge): string {
  return makeBadge({ label: badge.label, message: badge.message, color: badge.color });
}
