/**
 * The JSON Schema (draft 2020-12) of the config file, written from CONFIG_SPEC, the
 * declaration the validator reads too. Editors use it for completion and checks
 * (`# yaml-language-server: $schema=...`); `coherency-exporter schema` prints it and
 * config/coherency.schema.json is a copy kept equal by a test (`npm run schema`).
 *
 * The schema holds what a declaration can say: keys, types, ranges, enums, patterns,
 * required keys, defaults. check-config goes further (cron syntax, files, environment
 * variables, probe names a target refers to, cross-field rules).
 */
import { CONFIG_SPEC, type FieldSpec, type KeyIs, type SectionName, type SectionSpec } from './configSpec.js';

type Json = Record<string, unknown>;

function field(f: FieldSpec): Json {
  const out: Json = { description: f.description };
  switch (f.type) {
    case 'section':
      out['$ref'] = `#/$defs/${f.section}`;
      break;
    case 'list':
      out['type'] = 'array';
      out['items'] = field(f.items);
      if (f.minItems !== undefined) out['minItems'] = f.minItems;
      if (f.maxItems !== undefined) out['maxItems'] = f.maxItems;
      if (f.uniqueItems) out['uniqueItems'] = true;
      break;
    case 'map': {
      out['type'] = 'object';
      if (f.keys) {
        out['properties'] = Object.fromEntries(f.keys.map((k) => [k, f.values ? field(f.values) : {}]));
        out['additionalProperties'] = false;
      } else if (f.values) {
        out['additionalProperties'] = field(f.values);
      }
      const names: Json = {};
      if (f.keyPattern !== undefined) names['pattern'] = f.keyPattern;
      if (f.forbiddenKeys) names['not'] = f.keysIgnoreCase ? { pattern: caseless(f.forbiddenKeys) } : { enum: [...f.forbiddenKeys] };
      if (Object.keys(names).length > 0) out['propertyNames'] = names;
      break;
    }
    case 'string':
      out['type'] = 'string';
      if (f.enum) out['enum'] = [...f.enum];
      if (f.pattern !== undefined) out['pattern'] = f.pattern;
      if (f.minLength !== undefined) out['minLength'] = f.minLength;
      break;
    case 'integer':
    case 'number':
      out['type'] = f.type;
      if (f.minimum !== undefined) out['minimum'] = f.minimum;
      if (f.exclusiveMinimum !== undefined) out['exclusiveMinimum'] = f.exclusiveMinimum;
      if (f.maximum !== undefined) out['maximum'] = f.maximum;
      break;
    case 'boolean':
      out['type'] = 'boolean';
      break;
  }
  if (f.nullable) {
    out['type'] = [out['type'], 'null'];
    if (Array.isArray(out['enum'])) out['enum'] = [...(out['enum'] as unknown[]), null];
  }
  if (f.default !== undefined) out['default'] = f.default;
  return out;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A pattern that matches any of the names whatever their case (JSON Schema patterns have no i flag). */
function caseless(names: readonly string[]): string {
  const one = (n: string) =>
    [...n].map((c) => (c.toLowerCase() !== c.toUpperCase() ? `[${c.toLowerCase()}${c.toUpperCase()}]` : escapeRegExp(c))).join('');
  return `^(?:${names.map(one).join('|')})$`;
}

/** JSON Schema's if/then/else, a plain object (not a promise, whatever its `then` key). */
function ifThen(cond: Json, then: Json, otherwise?: Json): Json {
  const rule: Json = { if: cond };
  rule['then'] = then;
  if (otherwise) rule['else'] = otherwise;
  return rule;
}

/** "key is one of values" as a schema condition. */
function when(c: KeyIs): Json {
  return { properties: { [c.key]: { enum: [...c.values] } }, required: [c.key] };
}

function section(s: SectionSpec): Json {
  const required = Object.entries(s.fields)
    .filter(([, f]) => f.required)
    .map(([k]) => k);
  const out: Json = {
    type: 'object',
    description: s.description,
    properties: Object.fromEntries(Object.entries(s.fields).map(([k, f]) => [k, field(f)])),
    additionalProperties: false,
  };
  if (required.length > 0) out['required'] = required;
  const rules: Json[] = [];
  if (s.exactlyOne) {
    const one = { oneOf: s.exactlyOne.map((k) => ({ required: [k] })) };
    if (!s.noneWhen) out['oneOf'] = one.oneOf;
    // where the condition holds (a recall probe), none of them; elsewhere exactly one
    else rules.push(ifThen(when(s.noneWhen), { not: { anyOf: s.exactlyOne.map((k) => ({ required: [k] })) } }, one));
  }
  if (s.atMostOne) out['not'] = { required: [...s.atMostOne] };
  // keys that belong to some values of another key only (facts: kind recall)
  for (const [k, f] of Object.entries(s.fields)) {
    if (f.onlyWhen) rules.push(ifThen({ not: when(f.onlyWhen) }, { not: { required: [k] } }));
    if (f.notWhen) rules.push(ifThen(when(f.notWhen), { not: { required: [k] } }));
  }
  if (rules.length > 0) out['allOf'] = rules;
  return out;
}

/** The schema as a plain object. */
export function configSchema(): Json {
  const { root, ...rest } = CONFIG_SPEC;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'coherency-exporter config',
    ...section(root),
    $defs: Object.fromEntries(Object.entries(rest).map(([name, s]) => [name as SectionName, section(s)])),
  };
}

/** The schema as the text of config/coherency.schema.json (two-space JSON, final newline). */
export function configSchemaText(): string {
  return `${JSON.stringify(configSchema(), null, 2)}\n`;
}
