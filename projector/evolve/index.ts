export * from './types.ts';
export { RECENT_EVENT_IDS, classifyVersion } from './versioning.ts';
export { covers, intersectIntervals, unionIntervals } from './intervals.ts';
export { deriveRegistryTimeline, exceptionAt, type Timeline, type TimelineInput } from './registryTimeline.ts';
export { markdownToPlainText } from './markdownText.ts';
export { initialCompetitionState, type CompetitionEntry, type CompetitionState } from './competitionState.ts';
export { evolveCompetition, evolveCompetitionInPlace, type CompetitionEvent } from './evolveCompetition.ts';
export { competitionPublicView, competitionReadDocument, registrationStateChanges } from './competitionDocument.ts';
export * from './personState.ts';
export { advancePerson, advancePerson as advanceTo, archivalDueAt, nextRoleDueAt } from './advancePerson.ts';
export { evolvePerson, evolvePersonInPlace, type PersonEvent } from './evolvePerson.ts';
export { linkFacts, memberLinkFactId, type MemberLinkFact } from './memberLinks.ts';
export {
  coachReadDocument,
  coachStaffFacts,
  dancerLinkFacts,
  deriveCoachListing,
  paidRoleTimeline,
  roleReadDocuments,
  type CoachListing,
  type PersonRoleDocuments,
} from './personDocuments.ts';
export { initialClubState, type ClubLocationState, type ClubState } from './clubState.ts';
export { evolveClub, evolveClubInPlace, type ClubEvent } from './evolveClub.ts';
export { clubReadDocument, deriveClubMembership, orderedLocations, type ClubMembership } from './clubDocuments.ts';
export { evolve, type EvolveContext } from './evolve.ts';
export { createInMemoryReadModel, type InMemoryReadModel } from './inMemoryReadModel.ts';
