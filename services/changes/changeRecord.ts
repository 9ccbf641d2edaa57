import type { ChangeAction, ChangeResourceType } from '../../schemas/api/changes.ts';

/** One change as the log stores it. */
export interface ChangeRecord {
  /** Its position in the generation's feed. */
  _id: number;
  /** When it was appended: after the document it announces was stored and its listing's version bumped. */
  at: Date;
  type: ChangeResourceType;
  id: string;
  action: ChangeAction;
  /** The resource's country keys (folded name and code, id key: services/readModel/sortKeys.ts), for `country` and `countryId`. */
  country: string[];
}
