import type { components, paths } from './schema.ts';

/** Every path of the API (all of them answer GET). */
export type ReadPath = keyof paths;

type Parameters<P extends ReadPath> = paths[P]['get']['parameters'];
type Ok<P extends ReadPath> = paths[P]['get']['responses'][200];
type OkContent<P extends ReadPath> = Ok<P> extends { content: infer C } ? C : never;

/** The query parameters of a path (names, types and enum values from the OpenAPI document). */
export type QueryOf<P extends ReadPath> = Parameters<P>['query'];

/** The parameters of one request: `path` is required where the path has `{parameters}`. */
export type RequestParams<P extends ReadPath> = {
  query?: Parameters<P>['query'];
  header?: Parameters<P>['header'];
} & (Parameters<P> extends { path: infer PathParams } ? { path: PathParams } : { path?: never });

export interface RequestOptions<P extends ReadPath> {
  params?: RequestParams<P>;
  /** Cancels the request, its retries and their waits. */
  signal?: AbortSignal;
}

/** `GET(path, init)`: `init` (with `params.path`) is required where the path has `{parameters}`. */
export type RequestArgs<P extends ReadPath> =
  Parameters<P> extends { path: unknown } ? [init: RequestOptions<P> & { params: RequestParams<P> }] : [init?: RequestOptions<P>];

/**
 * The 200 body of a path: parsed JSON, or the text of the calendar feed and the reference page.
 * Where a path has JSON and another form (`/changes` streams events when asked to), the client
 * asks for neither and gets JSON.
 */
export type ResponseBody<P extends ReadPath> =
  OkContent<P> extends { 'application/json': infer Json } ? Json : OkContent<P>[keyof OkContent<P>];

/** The paths whose bodies are pages with `links.next`. */
export type ListPath = { [P in ReadPath]: ResponseBody<P> extends { links: { next: string | null } } ? P : never }[ReadPath];

/** One item of a list path's `data`. */
export type ItemOf<P extends ListPath> = ResponseBody<P> extends { data: Array<infer Item> } ? Item : never;

/** The `error` member of the API's error envelope: `{ type, message, details }`. */
export type ErrorBody = components['schemas']['Error']['error'];

/** One change of the feed (`GET /changes`): its cursor, when it became visible, the resource and what happened to it. */
export type Change = components['schemas']['Change'];
/** A page of the feed in its JSON form. */
export type ChangePage = components['schemas']['ChangeList'];
/** The query parameters of `GET /changes`. */
export type ChangesQuery = QueryOf<'/changes'>;
