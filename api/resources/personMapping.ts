import { Coach, Dancer, Judge } from '../../schemas/api/registryPeople.ts';
import { fieldsOf, recordOf } from './schemaRecord.ts';

export const DANCER_FIELDS = fieldsOf(Dancer);
export const COACH_FIELDS = fieldsOf(Coach);
export const JUDGE_FIELDS = fieldsOf(Judge);

export const toDancer = recordOf(Dancer);
export const toCoach = recordOf(Coach);
export const toJudge = recordOf(Judge);
