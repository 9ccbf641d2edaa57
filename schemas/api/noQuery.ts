import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';

/** Endpoints that take no query parameter: any parameter answers 400 (`<name>: unknown parameter`). */
export const NoQuery = Type.Object({}, { additionalProperties: false });

export type NoQuery = Static<typeof NoQuery>;
