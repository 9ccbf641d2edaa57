/** The package's version (package.unit.test.ts keeps it equal to package.json's). */
export const CLIENT_VERSION = '2.0.0';

/** The product token this client names itself by in `User-Agent`. */
export const CLIENT_PRODUCT = `federation-read-client/${CLIENT_VERSION}`;
