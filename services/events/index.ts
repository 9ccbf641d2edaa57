export * from './types.ts';
export * from './validateEvent.ts';
export * from './describeSchemaErrors.ts';
