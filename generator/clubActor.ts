import type { EventData } from '../services/events/index.ts';
import { Actor, type EventBody } from './actor.ts';
import { branchPlace, clubContacts, clubLocation, clubLogo, clubName, foundedOn, placeAt, streetAddress, placeId } from './clubProfile.ts';
import { PLACES } from './places.ts';
import { DAY, HOUR, dateTime } from './time.ts';
import { addClub, type ClubRef, type World } from './world.ts';

type ClubTaskKind = 'register' | 'change' | 'setMain' | 'lift';

interface LocationRef {
  readonly id: string;
  type: 'main' | 'branch';
}

/** Mean wait between two changes to a club: clubs change rarely compared with their members. */
const MEAN_CHANGE_GAP = 240 * DAY;

export class ClubActor extends Actor<ClubTaskKind> {
  private placeIndex = 0;
  private city = '';
  private locations: LocationRef[] = [];
  private ref: ClubRef | null = null;
  private exceptionUntil = 0;
  private readonly imported: boolean;

  /** `imported`: brought over from the previous registry, so approved long before the event. */
  constructor(world: World, at: number, imported: boolean) {
    super(world);
    this.imported = imported;
    this.plan(at, 'register');
  }

  protected act(kind: ClubTaskKind, _ref: number, at: number): EventBody | null {
    switch (kind) {
      case 'register':
        return this.register(at);
      case 'change':
        this.plan(at + this.world.random.exponential(MEAN_CHANGE_GAP), 'change');
        return this.change(at);
      case 'setMain':
        return this.setMain();
      case 'lift':
        return this.exceptionUntil > at ? this.lift() : null;
    }
  }

  private register(at: number): EventBody {
    const { random } = this.world;
    this.placeIndex = random.weighted(PLACES.map((_, i) => [i, i === 0 ? 3 : 1] as const));
    const place = placeAt(this.placeIndex);
    this.city = random.pick(place.cities);
    const name = clubName(random, place, this.city);
    const locationCount = random.weighted([
      [0, 8],
      [1, 62],
      [2, 18],
      [3, 9],
      [4, 3],
    ] as const);
    const locations = [];
    for (let i = 0; i < locationCount; i++) {
      const where = i === 0 ? { placeIndex: this.placeIndex, city: this.city } : branchPlace(random, this.placeIndex, this.city);
      const location = clubLocation(random, random.uuid(), i === 0 ? 'main' : 'branch', where.placeIndex, where.city);
      locations.push(location);
      this.locations.push({ id: location.id, type: location.type });
    }
    const contacts = clubContacts(random, place, name);
    this.ref = {
      id: this.id,
      name,
      placeIndex: this.placeIndex,
      website: contacts.website,
      archived: false,
      takesMembers: random.chance(0.92),
    };
    addClub(this.world, this.ref);
    this.plan(at + random.exponential(MEAN_CHANGE_GAP), 'change');
    const data: EventData<'club.registered'> = {
      name,
      logo: clubLogo(random),
      foundedOn: foundedOn(random, at),
      approvedAt: random.chance(0.9) ? dateTime(at - random.int(0, this.imported ? 20 * 365 : 30) * DAY) : null,
      contacts,
      locations,
    };
    return { type: 'club.registered', data };
  }

  private change(at: number): EventBody {
    const { random } = this.world;
    const ref = this.ref;
    const options: [() => EventBody, number][] = [
      [() => this.detailsChanged(), 30],
      [() => this.locationAdded(), 14],
      [() => this.exceptionPlaced(at), 4],
    ];
    if (this.locations.length > 0) {
      options.push([() => this.locationChanged(), 14], [() => this.locationRemoved(at), 7]);
    }
    if (this.locations.some((l) => l.type === 'branch')) options.push([() => this.setMain() ?? this.detailsChanged(), 5]);
    if (ref !== null) options.push(ref.archived ? [() => this.reinstate(), 6] : [() => this.archive(), 4]);
    return random.weighted(options)();
  }

  private detailsChanged(): EventBody {
    const { random } = this.world;
    const place = placeAt(this.placeIndex);
    const data: EventData<'club.details_changed'> = random.weighted<EventData<'club.details_changed'>>([
      [{ contacts: clubContacts(random, place, this.ref?.name ?? 'club') }, 5],
      [{ logo: clubLogo(random) }, 3],
      [{ name: clubName(random, place, this.city) }, 1],
      [{ foundedOn: foundedOn(random, this.world.now) }, 1],
      [{ approvedAt: dateTime(this.lastAt - DAY) }, 1],
    ]);
    return { type: 'club.details_changed', data };
  }

  private locationAdded(): EventBody {
    const { random } = this.world;
    const type = this.locations.length === 0 ? 'main' : 'branch';
    const where = type === 'main' ? { placeIndex: this.placeIndex, city: this.city } : branchPlace(random, this.placeIndex, this.city);
    const location = clubLocation(random, random.uuid(), type, where.placeIndex, where.city);
    this.locations.push({ id: location.id, type });
    return { type: 'club.location_added', data: { location } };
  }

  private locationChanged(): EventBody {
    const { random } = this.world;
    const target = random.pick(this.locations);
    const place = placeAt(this.placeIndex);
    const changes: EventData<'club.location_changed'>['changes'] = random.chance(0.7)
      ? { address: streetAddress(random, place, this.city), placeId: placeId(random) }
      : { city: this.city, country: place.country };
    return { type: 'club.location_changed', data: { locationId: target.id, changes } };
  }

  private locationRemoved(at: number): EventBody {
    const { random } = this.world;
    const target = random.pick(this.locations);
    this.locations = this.locations.filter((l) => l !== target);
    // A removed main location leaves the club without an address until another is made main.
    if (target.type === 'main' && this.locations.length > 0 && random.chance(0.75)) {
      this.plan(at + random.int(1, 72) * HOUR, 'setMain');
    }
    return { type: 'club.location_removed', data: { locationId: target.id } };
  }

  private setMain(): EventBody | null {
    const branches = this.locations.filter((l) => l.type === 'branch');
    if (branches.length === 0) return null;
    const chosen = this.world.random.pick(branches);
    for (const location of this.locations) location.type = location === chosen ? 'main' : 'branch';
    return { type: 'club.main_location_set', data: { locationId: chosen.id } };
  }

  private archive(): EventBody {
    if (this.ref !== null) this.ref.archived = true;
    return { type: 'club.archived', data: {} };
  }

  private reinstate(): EventBody {
    if (this.ref !== null) this.ref.archived = false;
    return { type: 'club.reinstated', data: {} };
  }

  private exceptionPlaced(at: number): EventBody {
    const { random } = this.world;
    const until = at + random.int(7, 200) * DAY;
    this.exceptionUntil = until;
    if (random.chance(0.4)) this.plan(at + random.float() * (until - at), 'lift');
    const registryState = this.ref?.archived === true || random.chance(0.6) ? 'REGISTRY' : 'ARCHIVE';
    return { type: 'club.exception_placed', data: { registryState, until: dateTime(until) } };
  }

  private lift(): EventBody {
    this.exceptionUntil = 0;
    return { type: 'club.exception_lifted', data: {} };
  }
}
