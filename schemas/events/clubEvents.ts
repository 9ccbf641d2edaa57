import { Type } from '@sinclair/typebox';
import { DateTime, Nullable, NullableString, Uuid } from './primitives.ts';
import { ClubContacts, ClubLocation, Closed, NoData, RegistryState, Subset } from './shared.ts';

export const ClubDetails = Closed({
  name: NullableString(),
  logo: NullableString(),
  // Verbatim from the write side: a bare year or a full date.
  foundedOn: NullableString(),
  approvedAt: Nullable(DateTime()),
  contacts: ClubContacts,
});

export const ClubLocationChanges = Subset(Type.Omit(ClubLocation, ['id', 'type']));

/** `data` of every event of the club aggregate (aggregateId = club id). */
export const clubEventData = {
  'club.registered': Closed({
    ...ClubDetails.properties,
    // Draft-07 cannot count matches; validateEvent checks this rule after the schema.
    locations: Type.Array(ClubLocation, { description: 'Exactly one `main` location when any exist.' }),
  }),
  'club.details_changed': Subset(ClubDetails),
  'club.location_added': Closed({ location: ClubLocation }),
  'club.location_changed': Closed({ locationId: Uuid(), changes: ClubLocationChanges }),
  'club.location_removed': Closed({ locationId: Uuid() }),
  'club.main_location_set': Closed({ locationId: Uuid() }),
  'club.archived': NoData(),
  'club.reinstated': NoData(),
  'club.exception_placed': Closed({ registryState: RegistryState, until: DateTime() }),
  'club.exception_lifted': NoData(),
};
