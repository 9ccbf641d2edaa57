/** A parsed query type in which the parameters that have a schema default are always present. */
export type WithDefaults<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: Exclude<T[P], undefined> };
