/**
 * The TypeScript type of each section of CONFIG_SPEC, derived from the declaration so that
 * a key's type is written once: a string key with an enum is the union of its values, a
 * list the array of its items, a section the type of that section. What readSection gives:
 * a key that is required, has a default (or a whenAbsent value) or is a section is always
 * there; the others are absent when the file leaves them out; a nullable key may be null.
 */
import type { CONFIG_SPEC, SectionName } from './configSpec.js';

type Spec = typeof CONFIG_SPEC;
type Fields<S extends SectionName> = Spec[S]['fields'];

/** The value of one declaration. */
export type FieldValue<F> = F extends { type: 'string'; enum: readonly (infer E)[] }
  ? E
  : F extends { type: 'string' }
    ? string
    : F extends { type: 'integer' | 'number' }
      ? number
      : F extends { type: 'boolean' }
        ? boolean
        : F extends { type: 'section'; section: infer S extends SectionName; partial: true }
          ? Partial<SectionValue<S>>
          : F extends { type: 'section'; section: infer S extends SectionName }
            ? SectionValue<S>
            : F extends { type: 'list'; items: infer I }
              ? FieldValue<I>[]
              : F extends { type: 'map'; values: null }
                ? Record<string, unknown>
                : F extends { type: 'map'; values: infer V }
                  ? Record<string, FieldValue<V>>
                  : never;

type Value<F> = F extends { nullable: true } | { whenAbsent: null } ? FieldValue<F> | null : FieldValue<F>;
type Always = { required: true } | { default: unknown } | { whenAbsent: unknown } | { type: 'section' };

/** A section as readSection gives it. */
export type SectionValue<S extends SectionName> = {
  -readonly [K in keyof Fields<S> as Fields<S>[K] extends Always ? K : never]: Value<Fields<S>[K]>;
} & {
  -readonly [K in keyof Fields<S> as Fields<S>[K] extends Always ? never : K]?: Value<Fields<S>[K]>;
};

/** The keys of a section declared onlyWhen a sibling has the value V (probe, recall: the recall keys). */
export type KeysOnlyWhen<S extends SectionName, V extends string> = {
  [K in keyof Fields<S>]: Fields<S>[K] extends { onlyWhen: { values: readonly (infer X)[] } } ? (V extends X ? K : never) : never;
}[keyof Fields<S>];

/** Every key of a section declared onlyWhen a sibling has some value. */
export type ConditionalKeys<S extends SectionName> = {
  [K in keyof Fields<S>]: Fields<S>[K] extends { onlyWhen: object } ? K : never;
}[keyof Fields<S>];
