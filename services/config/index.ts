export { loadConfig, ConfigError, type Config } from './loadConfig.ts';
export { configVariables, type ConfigVariable } from './configVariables.ts';
export { MEMBERSHIP_DEFAULTS, type GroupMembership } from './groupMembership.ts';
export { KAFKA_SASL_MECHANISMS, type KafkaSaslMechanism, type KafkaSecurity } from './kafkaSecurity.ts';
