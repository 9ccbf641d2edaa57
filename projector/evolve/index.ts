export * from './types.ts';
export { covers, intersectIntervals, unionIntervals } from './intervals.ts';
export { deriveRegistryTimeline, type Timeline, type TimelineInput } from './registryTimeline.ts';
export {
  initialCompetitionState,
  type CompetitionEntry,
  type CompetitionState,
  type EntryNaming,
  type StoredCompetitionState,
} from './competitionState.ts';
export { evolveCompetition, type CompetitionEvent } from './evolveCompetition.ts';
export { competitionReadDocument } from './competitionDocument.ts';
export * from './personState.ts';
export { advancePerson } from './advancePerson.ts';
export { evolvePerson, type PersonEvent } from './evolvePerson.ts';
export { type MemberLinkFact } from './memberLinks.ts';
export {
  coachReadDocument,
  coachStaffFacts,
  dancerLinkFacts,
  dancerListed,
  deriveCoachListing,
  roleReadDocuments,
  type CoachListing,
  type PersonRoleDocuments,
} from './personDocuments.ts';
export { initialClubState, type ClubLocationState, type ClubState } from './clubState.ts';
export { evolveClub, type ClubEvent } from './evolveClub.ts';
export { clubReadDocument, deriveClubMembership, type ClubMembership } from './clubDocuments.ts';
