// Checks an API body against the shape a command needs before the command sees it. Only what the
// command reads is checked; every other field passes through untouched (JSON output stays
// verbatim). A check returns the first problem found, phrased for the user, or undefined.
//
// Plain checks rather than a schema library: the shapes are a handful of required fields, the
// messages must name the field the command needed ("data[3] is null"), which these give directly,
// and they cost nothing at start-up. Each check carries the type of what it lets through, and the
// combinators compose those types, so one definition is both the check and the type: a caller
// names the shape, never a type beside it (`api.get(path, shapes.unit)` is a Promise<Unit>).

declare const CHECKED: unique symbol;

/** Returns a problem ("data[3] is null, not an object") or undefined when `v` fits; `T` is what fits. */
export type Check<T = unknown> = ((v: unknown, at: string) => string | undefined) & { readonly [CHECKED]?: T };

/** The type a check or shape lets through. */
export type Infer<C> = C extends Shape<infer T> ? T : C extends Check<infer T> ? T : never;

/** What a command expects from one operation: a description for messages, and its check. */
export interface Shape<T = unknown> {
  /** e.g. "a unit", "a page of units" */
  readonly what: string;
  /** For pages of this shape, e.g. "units". */
  readonly plural?: string | undefined;
  readonly check: Check<T>;
}

export function shape<T>(what: string, check: Check<T>, plural?: string): Shape<T> {
  return { what, check, plural };
}

export function kind(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return 'a string';
  if (typeof v === 'number') return 'a number';
  if (typeof v === 'boolean') return 'a boolean';
  return typeof v;
}

const name = (at: string) => at || 'the body';
const fail = (v: unknown, at: string, expected: string) =>
  at === '' && v === undefined ? 'the body is empty' : v === undefined ? `${at} is missing` : `${name(at)} is ${kind(v)}, not ${expected}`;

export const str: Check<string> = (v, at) => (typeof v === 'string' ? undefined : fail(v, at, 'a string'));
export const num: Check<number> = (v, at) =>
  typeof v === 'number' && Number.isFinite(v) ? undefined : fail(v, at, typeof v === 'number' ? 'a finite number' : 'a number');
export const bool: Check<boolean> = (v, at) => (typeof v === 'boolean' ? undefined : fail(v, at, 'a boolean'));
/** Any JSON value, as long as there is one. */
export const present: Check<unknown> = (v, at) => (v === undefined ? (at === '' ? 'the body is empty' : `${at} is missing`) : undefined);
/** Anything at all, including an empty body (the raw `api` command prints whatever came). */
export const anything: Check<unknown> = () => undefined;

export const optional =
  <T>(c: Check<T>): Check<T | undefined> =>
  (v, at) =>
    v === undefined ? undefined : c(v, at);
export const nullable =
  <T>(c: Check<T>): Check<T | null> =>
  (v, at) =>
    v === null ? undefined : c(v, at);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// Composite checks first ask a child with no path (''), which builds no strings, and only when it
// has a problem ask again with the child's path for the message: a 10,000-unit list otherwise
// built a path string for every field of every unit.

type Fields = Record<string, Check<unknown>>;
type Flat<T> = { [K in keyof T]: T[K] } & {};
/** The fields' types (a field whose check lets `undefined` through is optional), and any others as unknown. */
export type ObjectOf<F extends Fields> = Flat<
  { [K in keyof F as undefined extends Infer<F[K]> ? never : K]: Infer<F[K]> } & {
    [K in keyof F as undefined extends Infer<F[K]> ? K : never]?: Infer<F[K]>;
  }
> & { [field: string]: unknown };

/** An object with at least these fields (extra fields are fine, and kept). */
export const object = <F extends Fields = Record<never, Check<unknown>>>(fields: F = {} as F): Check<ObjectOf<F>> => {
  // Listed once, not on every check: a 10,000-unit list checks each unit. An index over two arrays
  // rather than for-of over [key, check] pairs: in a fresh process the loop mostly runs before it
  // is optimised, and unoptimised for-of allocates an iterator result per field.
  const keys = Object.keys(fields);
  const checks = keys.map((k) => fields[k]!);
  return (v, at) => {
    if (!isObject(v)) return fail(v, at, 'an object');
    for (let i = 0; i < keys.length; i++) {
      const x = v[keys[i]!];
      if (checks[i]!(x, '') !== undefined) return checks[i]!(x, at ? `${at}.${keys[i]}` : keys[i]!);
    }
    return undefined;
  };
};

export const list =
  <T>(item: Check<T>): Check<T[]> =>
  (v, at) => {
    if (!Array.isArray(v)) return fail(v, at, 'a list');
    for (let i = 0; i < v.length; i++) {
      if (item(v[i], '') !== undefined) return item(v[i], at ? `${at}[${i}]` : `item ${i}`);
    }
    return undefined;
  };

/** An object used as a map: every value fits `value`. */
export const record =
  <T>(value: Check<T>): Check<Record<string, T>> =>
  (v, at) => {
    if (!isObject(v)) return fail(v, at, 'an object');
    for (const [k, x] of Object.entries(v)) {
      if (value(x, '') !== undefined) return value(x, at ? `${at}.${k}` : k);
    }
    return undefined;
  };

/** The first alternative that fits; otherwise the first alternative's problem. */
export const either =
  <C extends Check<unknown>[]>(...alts: C): Check<Infer<C[number]>> =>
  (v, at) => {
    let first: string | undefined;
    for (const c of alts) {
      const problem = c(v, at);
      if (!problem) return undefined;
      first ??= problem;
    }
    return first;
  };

/** The problem with `v` as `s`, or undefined when it fits. */
export function problemWith(s: Shape<unknown>, v: unknown): string | undefined {
  return s.check(v, '');
}
