export * from './primitives.ts';
export * from './shared.ts';
export * from './envelope.ts';
export * from './competitionEvents.ts';
export * from './personEvents.ts';
export * from './clubEvents.ts';
export * from './eventTypes.ts';
export * from './eventSchemaFiles.ts';
