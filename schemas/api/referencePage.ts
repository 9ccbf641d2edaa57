// What the catalogue needs to know of the reference page (`/docs`): the files it may serve
// under `/docs/assets/` (the path parameter's pattern, so any other name is an unknown path
// before a handler runs) and the Content-Security-Policy of its responses.

/** Files of the reference page, served from our own origin (no CDN). */
export const REFERENCE_PAGE_ASSET_FILES = [
  'swagger-ui.css',
  'swagger-ui-bundle.js',
  'referencePage.js',
  'changesExample.js',
  'favicon-32x32.png',
  'favicon-16x16.png',
] as const;

export type ReferencePageAssetFile = (typeof REFERENCE_PAGE_ASSET_FILES)[number];

/**
 * Only what Swagger UI needs: its scripts and styles from this origin (the initializer is a
 * served file, so no inline script), images from here or `data:` (its icons), requests to this
 * origin (the OpenAPI document, "Try it out" and the change feed's browser example); nothing may frame it, post a form or move its base.
 */
export const REFERENCE_PAGE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
