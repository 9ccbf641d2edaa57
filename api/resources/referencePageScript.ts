/**
 * The reference page's initializer, served as `/docs/assets/referencePage.js` rather than
 * inlined, so the page's Content-Security-Policy needs no `'unsafe-inline'` for scripts. It
 * reads the document's URL from the page (`data-openapi-url`), so one file serves any base path.
 * Runs after the Swagger UI bundle (both `defer`, in document order).
 */
export const REFERENCE_PAGE_SCRIPT = `'use strict';
(function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-openapi-url'),
    domNode: root,
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    // Nothing leaves this origin: no online validator badge, no document named by the page's query.
    validatorUrl: null,
    queryConfigEnabled: false,
    displayRequestDuration: true,
  });
})();
`;
