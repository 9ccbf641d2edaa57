export { loadConfig, ConfigError, type Config } from './loadConfig.ts';
export { configVariables, type ConfigVariable } from './configVariables.ts';
export { MEMBERSHIP_DEFAULTS, type GroupMembership } from './groupMembership.ts';
