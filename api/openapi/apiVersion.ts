import packageJson from '../../package.json' with { type: 'json' };

/**
 * The version of the API description (`info.version`, the root document's `version`): the
 * package's own, so a release bumps one number and CHANGELOG.md names it.
 */
export const API_VERSION: string = packageJson.version;
