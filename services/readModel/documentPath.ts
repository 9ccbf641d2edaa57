/** Values a path ends at: nothing inside them is addressed by a dotted path. */
type Leaf = string | number | boolean | bigint | symbol | null | undefined | Date;

/** The levels left below one: a path names at most three (`locations.country.id`), the deepest any read addresses. */
type Deeper = [never, 0, 1];

/**
 * Every dotted path into documents of type `T`, as MongoDB addresses them: an object's fields,
 * their fields in turn, and through an array its items' fields (`locations.country`). A filter,
 * a projection or an index written with a path outside this union does not compile.
 */
export type DocumentPath<T, Depth extends number = 2> = [Depth] extends [never]
  ? never
  : T extends Leaf
    ? never
    : T extends readonly (infer Item)[]
      ? DocumentPath<Item, Depth>
      : { [K in keyof T & string]: K | `${K}.${DocumentPath<NonNullable<T[K]>, Deeper[Depth]>}` }[keyof T & string];
