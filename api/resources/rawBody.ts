/**
 * A response body that is not JSON (the calendar feed): the route sends the bytes with their
 * media type, and the ETag, the cache and the 304 work on those bytes as on any JSON body.
 */
export class RawBody {
  readonly contentType: string;
  readonly bytes: Buffer;

  constructor(contentType: string, bytes: Buffer) {
    this.contentType = contentType;
    this.bytes = bytes;
  }
}
