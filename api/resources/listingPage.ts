import type { Filter } from 'mongodb';
import type { DocumentPath } from '../../services/readModel/documentPath.ts';
import type { ReadDocuments } from '../../services/readModel/documents.ts';
import type { ReadListing } from '../../services/readModel/indexPlan.ts';
import { JSON_TYPE } from '../http/serializeBody.ts';
import { StreamedBody } from '../http/streamedBody.ts';
import type { ListingQuery } from './filterBuilder.ts';
import { pageLinks, pageMeta, type PageQuery } from './pagination.ts';
import type { Projected } from './projection.ts';
import { streamPage } from './readPage.ts';
import type { ResourceRequest } from './resourceRequest.ts';

/**
 * The requested page of a listing (`/competitions`, `/dancers`, ...) in its envelope: the page
 * read with `query`'s filter and plan, only `fields` loaded, each document mapped by `toItem`.
 * Made item by item from the cursor, as the bytes `JSON.stringify` gives the whole envelope
 * (`{"data":[...],"meta":...,"links":...}`): the pipeline sends it whole or streams it, by size.
 */
export function listingPage<L extends ReadListing, P extends DocumentPath<ReadDocuments[L]>, T>(
  req: ResourceRequest<PageQuery>,
  listing: L,
  query: ListingQuery<Filter<ReadDocuments[L]>>,
  fields: readonly P[],
  toItem: (doc: Projected<ReadDocuments[L], P>) => T,
): StreamedBody {
  const { page, limit } = req.query;
  const { docs, total } = streamPage(req.view, listing, query, { fields, page, limit });
  async function* envelope(): AsyncGenerator<string> {
    let separator = '{"data":[';
    for await (const doc of docs) {
      yield separator + JSON.stringify(toItem(doc));
      separator = ',';
    }
    const meta = pageMeta(page, limit, await total);
    const links = pageLinks(req.urls, `/${listing}`, req.query, meta);
    yield `${separator === ',' ? '' : separator}],"meta":${JSON.stringify(meta)},"links":${JSON.stringify(links)}}`;
  }
  return new StreamedBody(JSON_TYPE, envelope());
}
