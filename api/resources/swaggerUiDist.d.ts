// swagger-ui-dist ships no types. Only its path helper is imported: the package's main module
// also loads the 1.7 MB browser bundle into Node (about 140 ms and 13 MB of heap at start-up).
declare module 'swagger-ui-dist/absolute-path.js' {
  /** The folder holding swagger-ui.css, swagger-ui-bundle.js and the rest of the distribution. */
  const getAbsoluteFSPath: () => string;
  export default getAbsoluteFSPath;
}
