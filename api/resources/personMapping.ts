import type { Coach, Dancer, Judge } from '../../schemas/api/registryPeople.ts';
import type { CoachDocument, DancerDocument, JudgeDocument, PersonRoleDocumentBase } from '../../services/readModel/documents.ts';
import { registryStateOf } from './registryStateOf.ts';

type StoredPerson = Omit<PersonRoleDocumentBase, '_id' | 'nextDueAt'>;
type Stored<D> = Omit<D, '_id' | 'q' | 'nextDueAt'>;

const PERSON_FIELDS = [
  'id',
  'name',
  'surname',
  'nameEn',
  'surnameEn',
  'avatar',
  'country',
  'registryState',
  'registryUntil',
  'archivedAt',
] as const;
export const DANCER_FIELDS = [...PERSON_FIELDS, 'danceClass', 'status', 'membershipExpiresAt'] as const;
export const COACH_FIELDS = [...PERSON_FIELDS, 'highestClass'] as const;
export const JUDGE_FIELDS = [...PERSON_FIELDS, 'judgeCategory', 'status', 'membershipExpiresAt'] as const;

function names(p: StoredPerson) {
  return { id: p.id, name: p.name, surname: p.surname, nameEn: p.nameEn, surnameEn: p.surnameEn, avatar: p.avatar };
}

function registry(p: StoredPerson) {
  return { registryState: registryStateOf(p.registryState), registryUntil: p.registryUntil, archivedAt: p.archivedAt };
}

export function toDancer(d: Stored<DancerDocument>): Dancer {
  return {
    ...names(d),
    danceClass: d.danceClass,
    country: d.country,
    status: d.status,
    membershipExpiresAt: d.membershipExpiresAt,
    ...registry(d),
  };
}

export function toCoach(c: Stored<CoachDocument>): Coach {
  return { ...names(c), highestClass: c.highestClass, country: c.country, ...registry(c) };
}

export function toJudge(j: Stored<JudgeDocument>): Judge {
  return {
    ...names(j),
    judgeCategory: j.judgeCategory,
    country: j.country,
    status: j.status,
    membershipExpiresAt: j.membershipExpiresAt,
    ...registry(j),
  };
}
