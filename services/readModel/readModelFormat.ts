/**
 * The format of the read model this code writes: the shape of its stored documents, their query
 * keys and the indexes over them. Bump it (and say what changed below) whenever a document a
 * deployed model holds would no longer suit the code, so that a projector starting on an older
 * model rebuilds it as a shadow generation before projecting into it (projector/upgrade), and the
 * API serves each generation in the format recorded for it.
 *
 * 1. Every model built before formats were recorded (a meta document without `format`).
 */
export const READ_MODEL_FORMAT = 1;

/** The oldest format the API still serves: the one a model may hold while its upgrade runs. */
export const OLDEST_SERVED_FORMAT = 1;

/** Whether this code reads a generation of `format` right (the API serves it). */
export const servesFormat = (format: number): boolean => format >= OLDEST_SERVED_FORMAT && format <= READ_MODEL_FORMAT;
