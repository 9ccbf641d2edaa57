import type { PersonLink, PersonState } from './personState.ts';
import { intersectIntervals } from './intervals.ts';
import type { Interval } from './types.ts';

// Link facts (collection member_links): what a coach's or a club's derived state is a pure
// function of. One fact per (kind, subject, member role, member); upserted by _id, never deleted.

export interface MemberLinkFact {
  /** `${kind}|${subjectId}|${memberRole}|${memberId}` */
  _id: string;
  /** club: club membership (dancer) or staff (coach); coach: a dancer coached by subjectId. */
  kind: 'club' | 'coach';
  /** clubId (kind club) or the coach's person id (kind coach). */
  subjectId: string;
  memberId: string;
  memberRole: 'dancer' | 'coach';
  /** Whether a link is open now (closed links are kept as history). */
  open: boolean;
  /** When a link was open AND the member role was reported REGISTRY; `to: null` = still, as of the computation. */
  listed: Interval[];
}

export const memberLinkFactId = (kind: string, subjectId: string, memberRole: string, memberId: string): string =>
  `${kind}|${subjectId}|${memberRole}|${memberId}`;

/** Facts of every link of `role`, with `listed` = link periods ∩ the role's listed intervals. */
export function linkFacts(state: PersonState, role: 'dancer' | 'coach', roleListed: readonly Interval[]): MemberLinkFact[] {
  const bySubject = new Map<string, PersonLink[]>();
  for (const link of state.links) {
    if (link.role !== role) continue;
    const key = memberLinkFactId(link.kind, link.subjectId, role, state.id);
    bySubject.set(key, [...(bySubject.get(key) ?? []), link]);
  }
  const facts: MemberLinkFact[] = [];
  for (const [id, links] of bySubject) {
    const first = links[0];
    if (!first) continue;
    const periods = links.map((l) => ({ from: l.openedAt, to: l.closedAt }));
    facts.push({
      _id: id,
      kind: first.kind,
      subjectId: first.subjectId,
      memberId: state.id,
      memberRole: role,
      open: links.some((l) => l.closedAt === null),
      listed: intersectIntervals(periods, roleListed),
    });
  }
  return facts.sort((a, b) => (a._id < b._id ? -1 : 1));
}
