/**
 * The generic reader: walks a section of CONFIG_SPEC over a parsed value and enforces every
 * rule the declaration states (unknown keys, with a "did you mean"; type, range, enum,
 * pattern, length; list sizes and repeats; map keys; required keys; exactlyOne, noneWhen,
 * atMostOne, onlyWhen, notWhen), applies the defaults, and reports each problem as
 * `add(path, message)` in the order of the declaration. Nothing here knows a key by name:
 * the hand checks (validateConfig) run as hooks on a key once it is read, or on a section.
 *
 * A wrong or absent value falls back to the key's default (or stays absent), so one mistake
 * is reported once and the hooks never see a value of the wrong type.
 */
import {
  CONFIG_SPEC,
  type FieldSpec,
  fieldAccepts,
  fieldMessage,
  type KeyIs,
  type SectionName,
  type SectionSpec,
  wrongValueMessage,
} from './configSpec.js';
import type { SectionValue } from './specTypes.js';
import { suggestKey } from './suggest.js';

export type Obj = Record<string, unknown>;
export type AddProblem = (path: string, message: string) => void;
/** A hand check of a section, once read: it may report problems, and returns the section's final value. */
export type SectionHooks = { [S in SectionName]?: (value: SectionValue<S>, path: string, raw: Obj) => unknown };

export interface Reading {
  add: AddProblem;
  hooks?: SectionHooks;
  /**
   * Hand checks of one key ("target.baseUrl"), run on its value once the declaration's checks
   * passed, in the declaration's order; they may report problems and return the value changed
   * (undefined: refused). "server.trustProxy[]" checks each entry of a list or a map.
   */
  keys?: Readonly<Record<string, (value: never, at: string, raw: Obj, key: string) => unknown>>;
  /** Where a key the file leaves out comes from instead of its default ("server.authToken": the environment). */
  absent?: Readonly<Record<string, (at: string) => unknown>>;
  /** The names a `namedIn` value may take (the probes a target may name). */
  names?: Readonly<Record<string, readonly string[]>>;
}

const PLAIN_KEY_RE = /^[A-Za-z0-9_-]+$/;

/** server.port, targets[0].headers["Bad Header"]: a key's path in messages. */
export function keyPath(parent: string, key: string): string {
  const part = PLAIN_KEY_RE.test(key) ? key : JSON.stringify(key);
  if (parent === '') return part;
  return PLAIN_KEY_RE.test(key) ? `${parent}.${key}` : `${parent}[${part}]`;
}

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** YAML `key:` with no value is null; the reader treats it like an absent key, unless the key is nullable and its default is not null. */
export function present(v: unknown): boolean {
  return v !== undefined && v !== null;
}

function unknownKey(at: string, key: string, known: readonly string[], noun: string, add: AddProblem): void {
  const hint = suggestKey(key, known);
  add(at, hint ? `unknown ${noun} (did you mean ${hint}?)` : `unknown ${noun} (known: ${known.join(', ')})`);
}

/** Reads one section (a mapping); undefined when the value is not a mapping. */
export function readSection<S extends SectionName>(
  name: S,
  raw: unknown,
  path: string,
  r: Reading,
  partial = false,
): SectionValue<S> | undefined {
  const spec: SectionSpec = CONFIG_SPEC[name];
  if (!isObj(raw)) {
    r.add(path, spec.message ?? 'must be a mapping');
    return undefined;
  }
  const fields = spec.fields as Record<string, FieldSpec>;
  const known = Object.keys(fields);
  for (const key of Object.keys(raw)) if (!Object.hasOwn(fields, key)) unknownKey(keyPath(path, key), key, known, 'key', r.add);

  const given = (key: string) => present(raw[key]);
  // What a condition reads: the sibling as given when it is valid, else its default.
  const current = (c: KeyIs): unknown => {
    const f = fields[c.key] as FieldSpec;
    return given(c.key) && fieldAccepts(f, raw[c.key]) ? raw[c.key] : f.default;
  };
  const holds = (c: KeyIs) => c.values.includes(current(c) as string);

  // Rules on groups of keys go by presence; the keys of a broken exactlyOne are not read further.
  const rules: [string, string][] = [];
  const skip = new Set<string>();
  if (spec.exactlyOne) {
    const keys = spec.exactlyOne;
    const set = keys.filter(given);
    const none = spec.noneWhen && holds(spec.noneWhen) ? spec.noneWhen : undefined;
    if (none && set.length > 0)
      rules.push([path, `a ${String(current(none))} ${name}${none.why ? ` ${none.why}` : ''}: leave out ${keys.join(' and ')}`]);
    else if (!none && set.length > 1) rules.push([path, `set either ${keys.join(' or ')}, not both`]);
    else if (!none && set.length === 0) rules.push([path, `set either ${keys.join(' or ')}`]);
    if (rules.length > 0 || none) for (const k of keys) skip.add(k);
  }
  if (spec.atMostOne && spec.atMostOne.filter(given).length > 1) {
    const at = spec.atMostOneAt !== undefined ? keyPath(path, spec.atMostOneAt) : path;
    rules.push([at, spec.atMostOneMessage ?? `set either ${spec.atMostOne.join(' or ')}, not both`]);
  }

  const out: Obj = {};
  for (const [key, f] of Object.entries(fields)) {
    const at = keyPath(path, key);
    let value: unknown;
    let refused = false;
    if (f.nullable && f.default !== null && f.default !== undefined && raw[key] === null) {
      // null where the default is not (storage.dir: null keeps runs in memory only) is a value of its own
      value = null;
    } else if (!given(key)) {
      if (f.required) r.add(at, f.type === 'list' && f.emptyMessage ? f.emptyMessage : 'is required');
      value = r.absent?.[`${name}.${key}`]?.(at);
    } else if (skip.has(key)) {
      refused = true; // reported by the group's rule
    } else if (f.onlyWhen && !holds(f.onlyWhen)) {
      refused = true;
      const c = f.onlyWhen;
      r.add(at, `applies to ${c.key} ${c.values.join(' or ')} only (this ${name} is ${c.key} ${String(current(c))})`);
    } else if (f.notWhen && holds(f.notWhen)) {
      refused = true;
      const c = f.notWhen;
      r.add(at, `does not apply to a ${String(current(c))} ${name}${c.why ? ` (${c.why})` : ''}: leave it out`);
    } else {
      const entry = r.keys?.[`${name}.${key}[]`] as Check | undefined;
      value = readValue(f, raw[key], at, r, entry && ((v, a, k) => entry(v, a, raw, k)));
      const check = r.keys?.[`${name}.${key}`] as Check | undefined;
      if (check && value !== undefined) value = check(value, at, raw);
    }
    // a section left out (or wrong) is read as empty: its defaults, and its hand checks still run (server: the token from the environment)
    if (value === undefined && f.type === 'section') {
      if (!refused) value = readSection(f.section, {}, at, r, partial || f.partial === true);
    } else if (value === undefined && !partial) {
      const absent = f.default !== undefined ? f.default : f.whenAbsent;
      if (absent !== undefined) value = structuredClone(absent);
    }
    if (value !== undefined) out[key] = value;
  }
  for (const [at, message] of rules) r.add(at, message);
  const hook = r.hooks?.[name] as ((v: Obj, path: string, raw: Obj) => unknown) | undefined;
  return (hook ? hook(out, path, raw) : out) as SectionValue<S>;
}

/** A hand check: the value, its path, the section it is in (as written) and, for an entry, its key. */
type Check = (v: unknown, at: string, raw: Obj, key?: string) => unknown;
type EntryCheck = (v: unknown, at: string, key: string) => unknown;

/** One present value by its declaration; undefined when it is wrong (the problem is reported). `each` checks a list's or map's entries. */
function readValue(f: FieldSpec, v: unknown, at: string, r: Reading, each?: EntryCheck): unknown {
  switch (f.type) {
    case 'section':
      return readSection(f.section, v, at, r, f.partial === true);
    case 'list':
      return readList(f, v, at, r, each);
    case 'map':
      return readMap(f, v, at, r, each);
    default:
      if (!fieldAccepts(f, v)) {
        r.add(at, wrongValueMessage(f, v));
        return undefined;
      }
      return typeof v === 'string' && !(f.type === 'string' && f.verbatim) ? v.trim() : v;
  }
}

function readList(f: Extract<FieldSpec, { type: 'list' }>, v: unknown, at: string, r: Reading, each?: EntryCheck): unknown[] | undefined {
  if (!Array.isArray(v)) {
    r.add(at, fieldMessage(f));
    return undefined;
  }
  const tooFew = f.minItems !== undefined && v.length < f.minItems;
  if ((tooFew && f.emptyMessage === undefined) || (f.maxItems !== undefined && v.length > f.maxItems)) {
    r.add(at, fieldMessage(f));
    return undefined;
  }
  if (tooFew) {
    r.add(at, f.emptyMessage as string);
    return undefined;
  }
  if (f.oneMessage) return readWholeList(f, v, at, r);
  const out: unknown[] = [];
  const firstAt = new Map<unknown, number>();
  const names = f.items.type === 'string' && f.items.namedIn !== undefined ? f.items.namedIn : undefined;
  v.forEach((item, i) => {
    const iat = `${at}[${i}]`;
    // an entry with a problem anywhere inside is left out (a message without its content)
    let bad = false;
    let value = readValue(f.items, item, iat, {
      ...r,
      add: (a, m) => {
        bad = true;
        r.add(a, m);
      },
    });
    if (value !== undefined && !bad && each) value = each(value, iat, String(i));
    if (value === undefined || bad) return;
    const first = firstAt.get(value);
    if (f.uniqueItems && first !== undefined) {
      const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 80)) : String(value);
      const message = f.duplicateMessage ?? 'is listed twice';
      r.add(iat, message.replace('{first}', `${at}[${first}]`).replace('{value}', shown));
      return;
    }
    firstAt.set(value, i);
    const known = names !== undefined ? (r.names?.[names] ?? []) : undefined;
    if (known !== undefined && !known.includes(value as string)) {
      const noun = names?.replace(/s$/, '');
      r.add(iat, `unknown ${noun} ${JSON.stringify(value)} (known: ${known.length > 0 ? known.join(', ') : 'none'})`);
      return;
    }
    out.push(value);
  });
  return out;
}

/** A list judged as a whole (recall positions, conformance checks): one message for any problem. */
function readWholeList(f: Extract<FieldSpec, { type: 'list' }>, v: unknown[], at: string, r: Reading): unknown[] | undefined {
  const message = fieldMessage(f);
  if (f.uniqueItems && new Set(v).size !== v.length) {
    r.add(at, message);
    return undefined;
  }
  const wrong = v.filter((item) => !fieldAccepts(f.items, item));
  if (wrong.length === 0) return [...v];
  const named = wrong.map((c) => JSON.stringify(c)?.slice(0, 40) ?? String(c)).join(', ');
  r.add(at, f.namesUnknown ? `${message}; unknown: ${named}` : message);
  return undefined;
}

function readMap(f: Extract<FieldSpec, { type: 'map' }>, v: unknown, at: string, r: Reading, each?: EntryCheck): Obj | undefined {
  if (!isObj(v)) {
    r.add(at, fieldMessage(f));
    return undefined;
  }
  const out: Obj = {};
  const keyRe = f.keyPattern !== undefined ? new RegExp(f.keyPattern) : undefined;
  const noun = f.keyNoun ?? 'key';
  // keys that ignore case: the first spelling of each, to name it at a later one
  const spelled = new Map<string, string>();
  for (const [key, value] of Object.entries(v)) {
    const kat = keyPath(at, key);
    const folded = f.keysIgnoreCase ? key.toLowerCase() : key;
    const earlier = spelled.get(folded);
    if (!spelled.has(folded) && (!keyRe || keyRe.test(key))) spelled.set(folded, key);
    const forbidden = f.forbiddenKeys?.find((k) => k === folded);
    const why =
      forbidden !== undefined && f.forbiddenReasons && Object.hasOwn(f.forbiddenReasons, forbidden)
        ? f.forbiddenReasons[forbidden]
        : undefined;
    if (f.keys && !f.keys.includes(key)) unknownKey(kat, key, f.keys, noun, r.add);
    else if (key === '__proto__') r.add(kat, 'is not a valid field name');
    else if (keyRe && !keyRe.test(key)) r.add(kat, f.keyMessage ?? 'is not a valid key');
    else if (earlier !== undefined) r.add(kat, `duplicate of ${noun} ${JSON.stringify(earlier)} (${noun} names ignore case)`);
    else if (forbidden !== undefined) r.add(kat, `${f.forbiddenMessage ?? 'cannot be set'}${why !== undefined ? `: ${why}` : ''}`);
    else {
      let read = f.values === null ? value : readValue(f.values, value, kat, r);
      if (read !== undefined && each) read = each(read, kat, key);
      if (read !== undefined) out[key] = read;
    }
  }
  return out;
}
