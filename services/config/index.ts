export { loadConfig, ConfigError, type Config } from './loadConfig.ts';
export { configVariables, type ConfigVariable } from './configVariables.ts';
