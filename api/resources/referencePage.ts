import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import getAbsoluteFSPath from 'swagger-ui-dist/absolute-path.js';
import { ENDPOINTS } from '../../schemas/api/endpoints.ts';
import type { ReferencePageAssetFile } from '../../schemas/api/referencePage.ts';
import { ApiError } from '../http/index.ts';
import { changesExampleHtml, changesExampleScript, escapeHtml } from './changesExample.ts';
import { RawBody } from './rawBody.ts';
import { REFERENCE_PAGE_SCRIPT } from './referencePageScript.ts';

const CSS = 'text/css; charset=utf-8';
const JAVASCRIPT = 'text/javascript; charset=utf-8';
const PNG = 'image/png';
export const HTML_MEDIA_TYPE = 'text/html; charset=utf-8';

export interface ReferencePageOptions {
  /** Where the API is mounted (`/api/v1`): the page names its files and the document from the root of this origin. */
  readonly basePath: string;
  /** The page's title (the OpenAPI document's `info.title`). */
  readonly title: string;
}

export interface ReferencePage {
  /** `GET /docs`. */
  readonly page: RawBody;
  /** `GET /docs/assets/{file}`: the catalogue's pattern lets only the allow-listed names through. */
  asset(file: string): RawBody;
}

/**
 * The API reference page: our HTML, Swagger UI's files from the swagger-ui-dist package, our
 * initializer. Every file is read once, here at start-up, from a fixed list of names, so a
 * request never names a path on the disk, and a missing file stops the start, not a request.
 */
export function referencePage(options: ReferencePageOptions): ReferencePage {
  const dist = getAbsoluteFSPath();
  const fromDist = (file: string, type: string): RawBody => new RawBody(type, readFileSync(join(dist, file)));
  const assets: Readonly<Record<ReferencePageAssetFile, RawBody>> = {
    'swagger-ui.css': fromDist('swagger-ui.css', CSS),
    'swagger-ui-bundle.js': fromDist('swagger-ui-bundle.js', JAVASCRIPT),
    'referencePage.js': new RawBody(JAVASCRIPT, Buffer.from(REFERENCE_PAGE_SCRIPT, 'utf8')),
    'changesExample.js': new RawBody(JAVASCRIPT, Buffer.from(changesExampleScript(changesUrl(options)), 'utf8')),
    'favicon-32x32.png': fromDist('favicon-32x32.png', PNG),
    'favicon-16x16.png': fromDist('favicon-16x16.png', PNG),
  };
  const files = new Map<string, RawBody>(Object.entries(assets));
  const html = referencePageHtml(options);
  return {
    page: new RawBody(HTML_MEDIA_TYPE, Buffer.from(html, 'utf8')),
    asset(file) {
      const body = files.get(file);
      if (!body) throw new ApiError('NOT_FOUND', 'No resource at this path.');
      return body;
    },
  };
}

/** The change feed's path under this origin, which the page's browser example follows. */
function changesUrl(options: ReferencePageOptions): string {
  return `${options.basePath}/changes`;
}

/** The page: the style sheet, the bundle and the initializer, the change feed's browser example, and the element Swagger UI renders into. */
export function referencePageHtml(options: ReferencePageOptions): string {
  const assets = `${options.basePath}${ENDPOINTS.referencePage.path}/assets`;
  const documentUrl = `${options.basePath}${ENDPOINTS.openApiDocument.path}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)} — reference</title>
<link rel="stylesheet" href="${escapeHtml(`${assets}/swagger-ui.css`)}">
<link rel="icon" type="image/png" sizes="32x32" href="${escapeHtml(`${assets}/favicon-32x32.png`)}">
<link rel="icon" type="image/png" sizes="16x16" href="${escapeHtml(`${assets}/favicon-16x16.png`)}">
<script src="${escapeHtml(`${assets}/swagger-ui-bundle.js`)}" defer></script>
<script src="${escapeHtml(`${assets}/referencePage.js`)}" defer></script>
<script src="${escapeHtml(`${assets}/changesExample.js`)}" defer></script>
</head>
<body>
<noscript>This page needs JavaScript. The machine-readable description is at <a href="${escapeHtml(documentUrl)}">${escapeHtml(documentUrl)}</a>.</noscript>
${changesExampleHtml(changesUrl(options))}
<div id="swagger-ui" data-openapi-url="${escapeHtml(documentUrl)}"></div>
</body>
</html>
`;
}
