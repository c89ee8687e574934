import type { FoundReference } from "./types.ts";

/** The reference as seen from the enclosing text, `by` characters further on. */
export function shiftFound(found: FoundReference, by: number): FoundReference {
  if (by === 0) return found;
  const moved: FoundReference = { ...found, start: found.start + by, end: found.end + by };
  if (found.pin) moved.pin = { ...found.pin, start: found.pin.start + by, end: found.pin.end + by };
  return moved;
}
