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

type ViewState = { path: string; raw: Record<string, unknown> };
type View = ConfigView & ViewState;

/** Set and not null. Takes the value, not the key: each lookup on a parsed config costs (megamorphic). */
function isSet(x: unknown): boolean {
  return x !== undefined && x !== null;
}

function present(v: View, key: string): boolean {
  return isSet(v.raw[key]);
}

function readNumber(v: View, key: string, integer: boolean, b: IntBounds = {}): number {
  const x = v.raw[key];
  if (!isSet(x)) return v.fail(key, "missing");
  if (typeof x !== "number") return v.fail(key, `expected a number, got ${describe(x)}`);
  if (!Number.isFinite(x)) return v.fail(key, "not a finite number");
  if (integer && !Number.isInteger(x)) return v.fail(key, `expected an integer, got ${x}`);
  const min = b.min ?? DEFAULT_MIN;
  const max = b.max ?? DEFAULT_MAX;
  if (x < min) return v.fail(key, `${x} is below the minimum ${min}`);
  if (x > max) return v.fail(key, `${x} is absurdly large (max ${max})`);
  return x;
}

// Methods live on one shared prototype (not per-view closures): estimates create many views, and this
// keeps a view to a two-field object.
const METHODS: Omit<ConfigView, "path" | "raw"> = {
  keyName(this: View, key) {
    return this.path ? `${this.path}.${key}` : key;
  },
  fail(this: View, key, message): never {
    throw new EstimatorInputError(this.keyName(key), message);
  },
  has(this: View, key) {
    return present(this, key);
  },
  int(this: View, key, b) {
    return readNumber(this, key, true, b);
  },
  optInt(this: View, key, fallback, b) {
    return present(this, key) ? readNumber(this, key, true, b) : fallback;
  },
  intOf(this: View, keys, b) {
    const set = keys.filter((k) => present(this, k));
    const key = set[0];
    if (key === undefined) return this.fail(keys.join("|"), "missing (none of these keys is set)");
    const value = readNumber(this, key, true, b);
    // Aliases that disagree (hidden_size 4096 next to n_embd 2048) are contradictory, not a choice.
    for (const other of set.slice(1)) {
      if (readNumber(this, other, true, b) !== value)
        this.fail(other, `${this.raw[other]} contradicts ${key} = ${value}`);
    }
    return value;
  },
  num(this: View, key, b) {
    return readNumber(this, key, false, { min: 0, ...b });
  },
  optNum(this: View, key, fallback, b) {
    return present(this, key) ? readNumber(this, key, false, { min: 0, ...b }) : fallback;
  },
  bool(this: View, key, fallback) {
    const x = this.raw[key];
    if (!isSet(x)) return fallback;
    if (typeof x !== "boolean") return this.fail(key, `expected true/false, got ${describe(x)}`);
    return x;
  },
  str(this: View, key) {
    const x = this.raw[key];
    if (!isSet(x)) return this.fail(key, "missing");
    if (typeof x !== "string") return this.fail(key, `expected a string, got ${describe(x)}`);
    return x;
  },
  optStr(this: View, key) {
    return present(this, key) ? this.str(key) : undefined;
  },
  sub(this: View, key) {
    const x = this.raw[key];
    if (!isSet(x)) return this.fail(key, "missing");
    if (!isObject(x)) return this.fail(key, `expected an object, got ${describe(x)}`);
    return configView(x, this.keyName(key));
  },
  optSub(this: View, key) {
    return present(this, key) ? this.sub(key) : undefined;
  },
  list(this: View, key) {
    const x = this.raw[key];
    if (!isSet(x)) return this.fail(key, "missing");
    if (!Array.isArray(x) || x.length === 0) return this.fail(key, "expected a non-empty array");
    return x.map((item, i) => configView(item, `${this.keyName(key)}[${i}]`));
  },
  optArray(this: View, key) {
    const x = this.raw[key];
    if (!isSet(x)) return undefined;
    if (!Array.isArray(x)) return this.fail(key, `expected an array, got ${describe(x)}`);
    return x;
  },
};

/** Wrap a parsed config object; throws EstimatorInputError when it is not a JSON object. */
export function configView(raw: unknown, path = ""): ConfigView {
  if (!isObject(raw))
    throw new EstimatorInputError(path || "(config)", `expected a JSON object, got ${describe(raw)}`);
  const view = Object.create(METHODS) as View;
  view.path = path;
  view.raw = raw;
  return view;
}

/** Require `a` divisible by `b` (e.g. hidden by heads when head_dim is implied); names `key` on failure. */
export function divisible(cfg: ConfigView, key: string, a: number, b: number, what: string): number {
  if (a % b !== 0) cfg.fail(key, `${a} is not divisible by ${what} ${b}`);
  return a / b;
}
