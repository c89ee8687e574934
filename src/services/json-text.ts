/** Deeper nesting than any real config or tokenizer file; past it, JSON is refused (stack safety). */
const MAX_JSON_DEPTH = 512;

/**
 * Why an upstream JSON text cannot be used, or null when it can: not JSON, or nested deeper than
 * MAX_JSON_DEPTH (JSON.parse accepts 100,000 levels, but walking or re-serializing them overflows the stack).
 */
export function jsonProblem(text: string): string | null {
  if (nestingDepth(text) > MAX_JSON_DEPTH) return `nested more than ${MAX_JSON_DEPTH} levels deep`;
  try {
    JSON.parse(text);
    return null;
  } catch (err) {
    return `not valid JSON (${err instanceof Error ? err.message : String(err)})`;
  }
}

/** The parsed value, or undefined for null, unparseable or too deeply nested text. */
export function parseJson(text: string | null): unknown {
  if (text === null || nestingDepth(text) > MAX_JSON_DEPTH) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Deepest bracket nesting outside strings; one pass, stops counting once past the cap. */
function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      depth++;
      if (depth > max) max = depth;
      if (max > MAX_JSON_DEPTH) return max;
    } else if (c === 125 || c === 93) depth--;
  }
  return max;
}
