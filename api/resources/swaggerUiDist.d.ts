// swagger-ui-dist ships no types. Only its path helper is imported: the package's main module
// also loads the browser bundle into Node, a start-up cost in time and heap for nothing.
declare module 'swagger-ui-dist/absolute-path.js' {
  /** The folder holding swagger-ui.css, swagger-ui-bundle.js and the rest of the distribution. */
  const getAbsoluteFSPath: () => string;
  export default getAbsoluteFSPath;
}
