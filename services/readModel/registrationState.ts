import type { RegistrationState } from './documents.ts';

/** What registration.state depends on (a CompetitionDocument or the competition's details). */
export interface RegistrationInput {
  status: 'open' | 'completed';
  registration: { status: 'open' | 'closed'; opensAt: string | null; deadline: string | null };
}

/**
 * Whether entries are accepted on the calendar day `today` ('YYYY-MM-DD' in the calendar zone).
 * Both the opening day and the deadline day are open.
 */
export function resolveRegistrationState(competition: RegistrationInput, today: string): RegistrationState {
  const { status, registration } = competition;
  if (status === 'completed' || registration.status === 'closed') return 'closed';
  if (registration.opensAt !== null && today < registration.opensAt) return 'not_yet_open';
  if (registration.deadline !== null && today > registration.deadline) return 'closed';
  return 'open';
}
