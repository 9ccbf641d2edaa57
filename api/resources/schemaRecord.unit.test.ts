import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { ClubListItem } from '../../schemas/api/club.ts';
import { Dancer } from '../../schemas/api/registryPeople.ts';
import { fieldsOf, inSchemaOrder, recordOf } from './schemaRecord.ts';

const country = { id: 428, name: 'Latvia', code: 'LV' };
const storedDancer = {
  registryState: 'REGISTRY',
  _id: 'd1',
  q: { nameKey: 'x' },
  nextDueAt: null,
  rev: 3,
  id: 'd1',
  surname: 'Bērziņš',
  name: 'Jānis',
  nameEn: 'Janis',
  surnameEn: 'Berzins',
  avatar: null,
  danceClass: 4,
  country: { ...country, internal: true },
  status: 'ACTIVE',
  membershipExpiresAt: null,
  registryUntil: '2027-01-01',
  archivedAt: null,
};

describe('recordOf', () => {
  it('keeps exactly the schema fields, nested ones too, in the schema order', () => {
    const dancer = recordOf(Dancer)(storedDancer);
    expect(Object.keys(dancer)).toEqual(fieldsOf(Dancer));
    expect(JSON.stringify(dancer)).toBe(
      JSON.stringify({
        id: 'd1',
        name: 'Jānis',
        surname: 'Bērziņš',
        nameEn: 'Janis',
        surnameEn: 'Berzins',
        avatar: null,
        danceClass: 4,
        country,
        status: 'ACTIVE',
        membershipExpiresAt: null,
        registryState: 'REGISTRY',
        registryUntil: '2027-01-01',
        archivedAt: null,
      }),
    );
  });

  it('cuts the items of arrays and keeps null where the schema allows it', () => {
    const club = recordOf(ClubListItem)({
      id: 'c1',
      name: null,
      logo: null,
      address: null,
      country: null,
      locations: [{ type: 'main', address: 'a', city: 'Rīga', country: { ...country, extra: 1 }, placeId: null, geo: [1, 2] }],
      dancersCount: 2,
      coachesCount: 0,
      registryState: 'ARCHIVE',
      registryUntil: null,
      archivedAt: '2026-01-01T00:00:00.000Z',
      q: {},
    });
    expect(club.locations).toEqual([{ type: 'main', address: 'a', city: 'Rīga', country, placeId: null }]);
    expect(club.country).toBeNull();
    expect(club).not.toHaveProperty('q');
  });

  it('never lets the internal buffer state out', () => {
    expect(() => recordOf(Dancer)({ ...storedDancer, registryState: 'BUFFER' })).toThrow(/BUFFER/);
  });
});

describe('inSchemaOrder', () => {
  const { registryState: _stored, ...dancer } = storedDancer;
  const parts = {
    ...dancer,
    status: 'ACTIVE' as const,
    registryState: 'REGISTRY' as const,
    country: { code: 'LV', id: 428, name: 'Latvia' },
  };

  it('puts the parts in the schema order and leaves out what it does not declare', () => {
    const body = inSchemaOrder(Dancer)(parts);
    expect(Object.keys(body)).toEqual(fieldsOf(Dancer));
    expect(body).not.toHaveProperty('q');
    expect(body).not.toHaveProperty('_id');
  });

  it('keeps each value as given, nested objects in their own order', () => {
    const body = inSchemaOrder(Dancer)(parts);
    expect(Object.keys(body.country ?? {})).toEqual(['code', 'id', 'name']);
    expect(body.country).toBe(parts.country);
  });

  it('leaves out an optional field the parts do not carry', () => {
    const { membershipExpiresAt: _left, ...without } = parts;
    const body = inSchemaOrder(Type.Object({ ...Dancer.properties, membershipExpiresAt: Type.Optional(Type.String()) }))(without);
    expect(body).not.toHaveProperty('membershipExpiresAt');
  });
});
