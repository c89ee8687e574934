/** Most numbers `range` may produce in one render: enough for any real chat template. */
const RANGE_BUDGET = 100_000;

/**
 * The globals @huggingface/jinja's Template.render declares, made pure: `strftime_now` reads a
 * fixed date, and `range` shares a per-render budget so nested loops cannot run for hours.
 * Call once per template rendered (its scenarios share the budget).
 */
export function jinjaGlobals(): Record<string, unknown> {
  let left = RANGE_BUDGET;
  const range = (start: number, stop?: number, step = 1): number[] => {
    const [from, to] = stop === undefined ? [0, start] : [start, stop];
    if (step === 0) throw new Error("range() step must not be zero");
    const out: number[] = [];
    for (let i = from; step > 0 ? i < to : i > to; i += step) {
      if (--left < 0) throw new Error(`range() exceeded ${RANGE_BUDGET} items in one render`);
      out.push(i);
    }
    return out;
  };
  return {
    false: false,
    true: true,
    none: null,
    False: false,
    True: true,
    None: null,
    raise_exception: (message: unknown) => {
      throw new Error(String(message));
    },
    range,
    strftime_now: fixedStrftime,
  };
}

const FIXED_DATE: Record<string, string> = {
  d: "26",
  "-d": "26",
  m: "07",
  "-m": "7",
  Y: "2024",
  y: "24",
  b: "Jul",
  B: "July",
  a: "Fri",
  A: "Friday",
  H: "00",
  M: "00",
  S: "00",
  "%": "%",
};

/** strftime over the fixed date 2024-07-26 00:00:00 (a Friday); enough for chat templates. */
function fixedStrftime(format: unknown): string {
  return String(format).replace(/%(-?[a-zA-Z%])/g, (m, k: string) => FIXED_DATE[k] ?? m);
}
