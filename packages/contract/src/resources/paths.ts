import type { z } from 'zod';

/*
 * Paths into records and request bodies as types, so that a definition naming a field its record
 * or body does not have fails to compile. A path is dotted (`department.name`); `a[].b` reads `b`
 * of every item of the array at `a` (a role's `rolePermissions[].permissionCode`).
 */

/** Levels a path may go down: records nest a reference inside an object at most (`address.country.name`). */
type Deeper = [never, 0, 1, 2, 3];

/** The paths below a field named `K` holding `V`: into an object, or into each item of an array. */
type Below<K extends string, V, D extends number> = V extends readonly (infer Item)[]
  ? Item extends object
    ? `${K}[].${PathsOf<Item, Deeper[D]>}`
    : never
  : V extends object
    ? // A string-keyed map (an audit entry's changes) is free-form: the path ends at it.
      string extends keyof V
      ? never
      : `${K}.${PathsOf<V, Deeper[D]>}`
    : never;

type PathsOf<T, D extends number> = [D] extends [never]
  ? never
  : { [K in keyof T & string]: K | Below<K, NonNullable<T[K]>, D> }[keyof T & string];

/**
 * Every path into `T`. A type known only as `unknown` (a definition whose schema is not known, as
 * the screens and the engine hold them) allows any path.
 */
export type PathOf<T> = 0 extends 1 & T ? string : unknown extends T ? string : PathsOf<T, 3>;

/** The fields of `T` that hold text: what can name a record. */
export type TextFieldOf<T> = 0 extends 1 & T
  ? string
  : unknown extends T
    ? string
    : { [K in keyof T & string]: NonNullable<T[K]> extends string ? K : never }[keyof T & string];

/** A path into a record as the schema `S` gives it. */
export type RecordPathOf<S extends z.ZodType> = PathOf<z.output<S>>;

/**
 * A path into a request body the schema `S` accepts: none for a schema not given (a read-only
 * module has no body), any for one not known.
 */
export type BodyPathOf<S extends z.ZodType> = 0 extends 1 & S
  ? string
  : z.ZodType extends S
    ? never
    : PathOf<NonNullable<z.input<S>>>;

/** The fields of `T` that hold a boolean: what can say a record is switched off. */
export type BooleanFieldOf<T> = 0 extends 1 & T
  ? string
  : unknown extends T
    ? string
    : { [K in keyof T & string]: NonNullable<T[K]> extends boolean ? K : never }[keyof T & string];
