/**
 * A validating reader over a parsed config.json. Every accessor names the key it failed on, so a bad
 * upstream config becomes a one-line finding instead of NaN in a memory plan.
 */

/** Bad or absurd config input. `key` is the dotted path of the offending key (e.g. "text_config.hidden_size"). */
export class EstimatorInputError extends Error {
  readonly key: string;
  constructor(key: string, message: string) {
    super(`${key}: ${message}`);
    this.name = "EstimatorInputError";
    this.key = key;
  }
}

export type IntBounds = { min?: number; max?: number };

export type ConfigView = {
  /** Dotted path of this view inside the root config ("" for the root). */
  path: string;
  raw: Record<string, unknown>;
  has(key: string): boolean;
  /** A required integer in [min, max] (defaults: 1 .. 1e9). */
  int(key: string, bounds?: IntBounds): number;
  /** An optional integer: `fallback` when the key is absent or null. */
  optInt(key: string, fallback: number, bounds?: IntBounds): number;
  /** The first present key among aliases, required. */
  intOf(keys: string[], bounds?: IntBounds): number;
  num(key: string, bounds?: IntBounds): number;
  optNum(key: string, fallback: number, bounds?: IntBounds): number;
  bool(key: string, fallback: boolean): boolean;
  str(key: string): string;
  optStr(key: string): string | undefined;
  sub(key: string): ConfigView;
  optSub(key: string): ConfigView | undefined;
  /** A required array of plain objects, as views (e.g. block_configs). */
  list(key: string): ConfigView[];
  /** An optional array of integers or strings (e.g. layer_types). */
  optArray(key: string): unknown[] | undefined;
  /** Full dotted name of a key, for error messages and warnings. */
  keyName(key: string): string;
  fail(key: string, message: string): never;
};

const DEFAULT_MIN = 1;
const DEFAULT_MAX = 1e9;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "string") return `the string ${JSON.stringify(v.slice(0, 40))}`;
  return `${typeof v} ${String(v).slice(0, 40)}`;
}

/** Wrap a parsed config object; throws EstimatorInputError when it is not a JSON object. */
export function configView(raw: unknown, path = ""): ConfigView {
  if (!isObject(raw))
    throw new EstimatorInputError(path || "(config)", `expected a JSON object, got ${describe(raw)}`);
  const keyName = (key: string) => (path ? `${path}.${key}` : key);
  const fail = (key: string, message: string): never => {
    throw new EstimatorInputError(keyName(key), message);
  };
  const present = (key: string) => raw[key] !== undefined && raw[key] !== null;

  const number = (key: string, integer: boolean, b: IntBounds = {}): number => {
    const v = raw[key];
    if (!present(key)) return fail(key, "missing");
    if (typeof v !== "number") return fail(key, `expected a number, got ${describe(v)}`);
    if (!Number.isFinite(v)) return fail(key, "not a finite number");
    if (integer && !Number.isInteger(v)) return fail(key, `expected an integer, got ${v}`);
    const min = b.min ?? DEFAULT_MIN;
    const max = b.max ?? DEFAULT_MAX;
    if (v < min) return fail(key, `${v} is below the minimum ${min}`);
    if (v > max) return fail(key, `${v} is absurdly large (max ${max})`);
    return v;
  };

  const view: ConfigView = {
    path,
    raw,
    has: present,
    keyName,
    fail,
    int: (key, b) => number(key, true, b),
    optInt: (key, fallback, b) => (present(key) ? number(key, true, b) : fallback),
    intOf: (keys, b) => {
      const key = keys.find(present);
      if (key === undefined) return fail(keys.join("|"), "missing (none of these keys is set)");
      return number(key, true, b);
    },
    num: (key, b) => number(key, false, { min: 0, ...b }),
    optNum: (key, fallback, b) => (present(key) ? number(key, false, { min: 0, ...b }) : fallback),
    bool: (key, fallback) => {
      if (!present(key)) return fallback;
      const v = raw[key];
      if (typeof v !== "boolean") return fail(key, `expected true/false, got ${describe(v)}`);
      return v;
    },
    str: (key) => {
      const v = raw[key];
      if (!present(key)) return fail(key, "missing");
      if (typeof v !== "string") return fail(key, `expected a string, got ${describe(v)}`);
      return v;
    },
    optStr: (key) => (present(key) ? view.str(key) : undefined),
    sub: (key) => {
      if (!present(key)) return fail(key, "missing");
      const v = raw[key];
      if (!isObject(v)) return fail(key, `expected an object, got ${describe(v)}`);
      return configView(v, keyName(key));
    },
    optSub: (key) => (present(key) ? view.sub(key) : undefined),
    list: (key) => {
      const v = raw[key];
      if (!present(key)) return fail(key, "missing");
      if (!Array.isArray(v) || v.length === 0) return fail(key, "expected a non-empty array");
      return v.map((item, i) => configView(item, `${keyName(key)}[${i}]`));
    },
    optArray: (key) => {
      if (!present(key)) return undefined;
      const v = raw[key];
      if (!Array.isArray(v)) return fail(key, `expected an array, got ${describe(v)}`);
      return v;
    },
  };
  return view;
}

/** Require `a` divisible by `b` (e.g. hidden by heads when head_dim is implied); names `key` on failure. */
export function divisible(cfg: ConfigView, key: string, a: number, b: number, what: string): number {
  if (a % b !== 0) cfg.fail(key, `${a} is not divisible by ${what} ${b}`);
  return a / b;
}
