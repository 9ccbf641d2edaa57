import type { ReadModelView } from '../readModelSource.ts';
import type { ApiUrls } from './apiUrls.ts';

/** What a resource handler gets: the validated query, path parameters, the request's view and day. */
export interface ResourceRequest<Q> {
  readonly query: Q;
  readonly params: Readonly<Record<string, string>>;
  readonly view: ReadModelView;
  /** The calendar day of the request in the configured zone (`period`, `registrationOpen`). */
  readonly today: string;
  readonly urls: ApiUrls;
}
