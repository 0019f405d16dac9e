/**
 * Policies written in a notebook cell, carried to sweep worker threads.
 *
 * Sweep parameters must be JSON, and a worker thread cannot see the
 * notebook's variables. `portable(policy)` turns a policy object (plain data
 * and functions, nested objects and arrays) into JSON that holds each
 * function's source text; `fromPortable` rebuilds it in any thread.
 *
 * The limit that follows from this: a portable function may use its
 * arguments, JavaScript's globals and `require` (e.g. `require('schedlab')`),
 * and nothing else of the cell that defined it — a variable captured from
 * the notebook is a ReferenceError in the worker. `portable` checks what it
 * can: every function must compile again from its own source, and it rejects
 * classes, symbols, getters and native or bound functions.
 */
import { InputError } from './errors';

/** A JSON description of a policy object whose functions travel as source text. */
// Type aliases, not interfaces, so that a PortableRef is assignable to a sweep's JSON parameters.
export type PortableRef = { portable: PortableValue };

type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
type PortableValue = { fn: string } | { object: { [key: string]: PortableValue } } | { array: PortableValue[] } | { json: JsonValue };

/** True for what `portable()` returns (after a JSON round trip too). */
export function isPortableRef(x: unknown): x is PortableRef {
  return x !== null && typeof x === 'object' && 'portable' in x && Object.keys(x as object).length === 1;
}

const SOURCE = 'portable';

/** Describe `value` (a policy object, a function, or plain data holding functions) as JSON. */
export function portable(value: unknown): PortableRef {
  return { portable: encode(value, 'policy') };
}

function encode(value: unknown, where: string): PortableValue {
  if (typeof value === 'function') {
    const src = Function.prototype.toString.call(value);
    if (/^class\b/.test(src)) throw new InputError(`${where}: classes cannot be made portable; use an object with methods`, { source: SOURCE, field: where });
    if (/\{\s*\[native code\]\s*\}$/.test(src)) throw new InputError(`${where}: native or bound functions have no source to carry`, { source: SOURCE, field: where });
    compile(src, where); // fails here, in the notebook, rather than in a worker
    return { fn: src };
  }
  if (typeof value === 'symbol' || typeof value === 'bigint') throw new InputError(`${where}: a ${typeof value} cannot be carried as JSON`, { source: SOURCE, field: where });
  if (Array.isArray(value)) return { array: value.map((v, i) => encode(v, `${where}[${i}]`)) };
  if (value !== null && typeof value === 'object') {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) throw new InputError(`${where}: only plain objects can be made portable (got ${proto?.constructor?.name ?? 'an instance'})`, { source: SOURCE, field: where });
    const out: Record<string, PortableValue> = {};
    for (const key of Object.keys(value)) {
      const d = Object.getOwnPropertyDescriptor(value, key)!;
      if (d.get || d.set) throw new InputError(`${where}.${key}: getters and setters cannot be made portable`, { source: SOURCE, field: `${where}.${key}` });
      out[key] = encode(d.value, `${where}.${key}`);
    }
    return { object: out };
  }
  if (typeof value === 'number' && !Number.isFinite(value)) throw new InputError(`${where}: ${value} is not JSON; compute it inside a function`, { source: SOURCE, field: where });
  return { json: value === undefined ? null : (value as JsonValue) };
}

/**
 * A function from its source text. Method shorthand (`schedule(view) { … }`,
 * `async f() { … }`) is not an expression, so it is read as the only member of
 * an object literal.
 */
function compile(src: string, where: string): (...args: unknown[]) => unknown {
  const attempt = (body: string) => new Function('require', `"use strict"; return (${body});`);
  let make: (req: NodeRequire) => unknown;
  try {
    make = attempt(src) as typeof make;
  } catch {
    try {
      const wrapped = attempt(`{ ${src} }`) as (req: NodeRequire) => Record<string, unknown>;
      make = (req) => Object.values(wrapped(req))[0];
    } catch (e) {
      throw new InputError(`${where}: its source does not compile on its own (${(e as Error).message})`, { source: SOURCE, field: where });
    }
  }
  const fn = make(require);
  if (typeof fn !== 'function') throw new InputError(`${where}: its source is not a function`, { source: SOURCE, field: where });
  return fn as (...args: unknown[]) => unknown;
}

function decode(v: PortableValue, where: string): unknown {
  if ('fn' in v) return compile(v.fn, where);
  if ('array' in v) return v.array.map((x, i) => decode(x, `${where}[${i}]`));
  if ('object' in v) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v.object)) out[k] = decode(x, `${where}.${k}`);
    return out;
  }
  if ('json' in v) return v.json;
  throw new InputError(`${where}: not a portable value`, { source: SOURCE, field: where });
}

/** Rebuilt objects per thread, by their JSON text: a sweep's cells share one policy object, as with a module. */
const rebuilt = new Map<string, unknown>();

/** The object a `PortableRef` describes (rebuilt once per thread). */
export function fromPortable(ref: PortableRef): unknown {
  const key = JSON.stringify(ref.portable);
  if (!rebuilt.has(key)) rebuilt.set(key, decode(ref.portable, 'policy'));
  return rebuilt.get(key);
}
