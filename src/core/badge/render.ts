import { makeBadge } from "badge-maker";
import type { EndpointBadge } from "./types.ts";

const BADGE_STYLES = ["plastic", "flat", "flat-square", "for-the-badge", "social"] as const;
export type BadgeStyle = (typeof BADGE_STYLES)[number];

/** shields' query overrides (?style=, ?label=, ?color=, ?labelColor=) on a badge's own values. */
export type BadgeOverrides = { style?: BadgeStyle; label?: string; color?: string; labelColor?: string };

// A named colour (brightgreen, informational, ...) or hex without/with '#', as shields accepts.
const COLOR = /^(#?[0-9a-f]{3}|#?[0-9a-f]{6}|[a-z]{3,20})$/i;

/**
 * Reads the override query parameters; anything unusable is left out (shields ignores a bad
 * style or colour rather than failing the badge). A label may be empty (shields: no label).
 */
export function parseBadgeOverrides(query: Record<string, unknown>): BadgeOverrides {
  const out: BadgeOverrides = {};
  const str = (k: string) => (typeof query[k] === "string" ? (query[k] as string) : undefined);
  const style = str("style");
  if (style && (BADGE_STYLES as readonly string[]).includes(style)) out.style = style as BadgeStyle;
  const label = str("label");
  if (label !== undefined && label.length <= 100) out.label = label;
  const color = str("color");
  if (color && COLOR.test(color)) out.color = color;
  const labelColor = str("labelColor");
  if (labelColor && COLOR.test(labelColor)) out.labelColor = labelColor;
  return out;
}

/** The badge as an SVG string (flat unless overridden); badge-maker escapes label and message. */
export function renderBadgeSvg(badge: EndpointBadge, overrides: BadgeOverrides = {}): string {
  return makeBadge({
    label: overrides.label ?? badge.label,
    message: badge.message,
    color: overrides.color ?? badge.color,
    ...(overrides.labelColor ? { labelColor: overrides.labelColor } : {}),
    style: overrides.style ?? "flat",
  });
}
