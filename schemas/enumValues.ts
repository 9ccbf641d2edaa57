// Every enumerated value of the domain, one list each, exactly as api-v1.md and events.md spell
// them: the event schemas, the API schemas and the read documents all take their values here.

export const COMPETITION_STATUSES = ['open', 'completed'] as const;
export const REGISTRATION_STATUSES = ['open', 'closed'] as const;
export const REGISTRATION_STATES = ['not_yet_open', 'open', 'closed'] as const;
export const PERIODS = ['upcoming', 'ongoing', 'past'] as const;
export const COMPETITION_INCLUDES = ['categories', 'entriesCount'] as const;
export const COMPETITION_SORTS = ['startDate', 'endDate', 'name', 'createdAt', 'updatedAt'] as const;
export const SORT_ORDERS = ['asc', 'desc'] as const;

export const ENTRY_TYPES = ['couple', 'solo', 'duo-synchro', 'mix', 'show'] as const;
export const STYLES = ['none', 'latin', 'standard', 'combined'] as const;

export const MEMBERSHIP_STATUSES = ['ACTIVE', 'LIMITED', 'INACTIVE'] as const;
export const REGISTRY_STATES = ['REGISTRY', 'ARCHIVE'] as const;
export const REGISTRY_SORTS = ['name', 'approvedAt'] as const;
export const SEXES = ['MALE', 'FEMALE'] as const;
export const JUDGE_POSITIONS = ['judge', 'headJudge', 'sportsInspector'] as const;
export const CLUB_LOCATION_TYPES = ['main', 'branch'] as const;

export type CompetitionStatus = (typeof COMPETITION_STATUSES)[number];
export type RegistrationState = (typeof REGISTRATION_STATES)[number];
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number];
export type RegistryState = (typeof REGISTRY_STATES)[number];
export type Period = (typeof PERIODS)[number];
export type JudgePosition = (typeof JUDGE_POSITIONS)[number];
