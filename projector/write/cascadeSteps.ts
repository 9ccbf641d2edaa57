import type { ClubDocument, CoachDocument } from '../../services/readModel/documents.ts';
import type { MemberLinkFact } from '../evolve/index.ts';
import type { CompetitionEntryRecord } from './competitionEntryRecords.ts';
import type { PersonLinkRecord } from './personLinkRecords.ts';
import { deriveClubs, deriveCoaches, type DerivationEdges } from './deriveSubjects.ts';
import type { Cascade } from './planCascade.ts';
import type { OwnDocs, Stamped, Stamps, States } from './projectionStore.ts';

/**
 * The stored data a step loads or writes. Each names one kind of thing in the read model (not a
 * collection: swept documents live beside the own ones, but their write means something else).
 */
export type Slot =
  | 'competitionEntries'
  | 'personLinks'
  | 'states'
  | 'ownDocuments'
  | 'dancerFacts'
  | 'coachRevisions'
  | 'clubRevisions'
  | 'staffFacts'
  | 'coachDocuments'
  | 'clubDocuments'
  | 'sweptDocuments';

/** One write a step asks for, as data: the runner makes it (see writeCascade). */
export type SlotWrite =
  | { slot: 'competitionEntries'; entries: readonly CompetitionEntryRecord[] }
  | { slot: 'personLinks'; records: readonly PersonLinkRecord[] }
  | { slot: 'states'; states: States }
  | { slot: 'ownDocuments' | 'sweptDocuments'; docs: OwnDocs; stamps: Stamps }
  | { slot: 'dancerFacts'; facts: ReadonlyMap<string, MemberLinkFact>; stamps: Stamps }
  | { slot: 'coachRevisions' | 'clubRevisions'; ids: ReadonlySet<string> }
  | { slot: 'staffFacts'; facts: Stamped<MemberLinkFact>[] }
  | { slot: 'coachDocuments'; docs: Stamped<CoachDocument | null>[] }
  | { slot: 'clubDocuments'; docs: Stamped<ClubDocument | null>[] };

/** What flows from step to step: the plan's parts, then what a step hands on to later ones. */
export interface Flow extends Cascade {
  /** The coaches' documents, derived by `staffFacts`, written after the clubs (see ORDER_RULES). */
  coachDocs: Stamped<CoachDocument | null>[];
  /** Clubs whose staff facts changed: derived too, after their revision is bumped again. */
  staffClubs: ReadonlySet<string>;
}

/** The flow values the plan starts with (planCascade). */
export const PLANNED: ReadonlyArray<keyof Flow> = ['own', 'swept', 'coaches', 'clubs'];

/** A step as declared: what it reads, loads, writes and hands on, and the function that does it. */
export interface StepOf<R extends keyof Flow, H extends keyof Flow> {
  readonly name: string;
  /** Flow values it takes. */
  readonly reads: readonly R[];
  /** Stored data it loads (before its own writes). */
  readonly loads: readonly Slot[];
  /** Stored data it writes: exactly one SlotWrite each, made together once the step returns. */
  readonly writes: readonly Slot[];
  /** Flow values it returns for later steps. */
  readonly handsOn: readonly H[];
  run(flow: Pick<Flow, R>, edges: DerivationEdges): Promise<StepResult<H>> | StepResult<H>;
}

export interface StepResult<H extends keyof Flow> {
  writes: SlotWrite[];
  handsOn?: Pick<Flow, H>;
}

/** Any step, as the runner holds them. */
export interface CascadeStep extends Omit<StepOf<keyof Flow, keyof Flow>, 'run'> {
  run(flow: Flow, edges: DerivationEdges): Promise<{ writes: SlotWrite[]; handsOn?: Partial<Flow> }>;
}

const step = <R extends keyof Flow, H extends keyof Flow = never>(declared: StepOf<R, H>): CascadeStep => ({
  ...declared,
  run: async (flow, edges) => declared.run(flow, edges),
});

/**
 * A batch's writes in the order that lets a replay finish whatever a crash between two of them
 * left undone (the reasons are ORDER_RULES; a unit test checks this list against them and
 * against what each step loads). Event batches and clock sweeps run the same steps: a sweep has
 * no states to write, an event batch no swept documents, and an empty write is still made.
 */
export const writeOrder: readonly CascadeStep[] = [
  step({
    name: 'competitionEntries',
    reads: ['own'],
    loads: [],
    writes: ['competitionEntries'],
    handsOn: [],
    run: ({ own }) => ({ writes: [{ slot: 'competitionEntries', entries: own.entries }] }),
  }),
  step({
    name: 'personLinks',
    reads: ['own'],
    loads: [],
    writes: ['personLinks'],
    handsOn: [],
    run: ({ own }) => ({ writes: [{ slot: 'personLinks', records: own.personLinks }] }),
  }),
  step({
    name: 'ownStatesAndDocuments',
    reads: ['own'],
    loads: [],
    writes: ['states', 'ownDocuments'],
    handsOn: [],
    run: ({ own }) => ({
      writes: [
        { slot: 'states', states: own.states },
        { slot: 'ownDocuments', docs: own.docs, stamps: own.stamps },
      ],
    }),
  }),
  step({
    name: 'dancerFacts',
    reads: ['own'],
    loads: [],
    writes: ['dancerFacts'],
    handsOn: [],
    run: ({ own }) => ({ writes: [{ slot: 'dancerFacts', facts: own.facts, stamps: own.stamps }] }),
  }),
  step({
    name: 'subjectRevisions',
    reads: ['coaches', 'clubs'],
    loads: [],
    writes: ['coachRevisions', 'clubRevisions'],
    handsOn: [],
    run: ({ coaches, clubs }) => ({
      writes: [
        { slot: 'coachRevisions', ids: coaches.ids },
        { slot: 'clubRevisions', ids: clubs },
      ],
    }),
  }),
  step({
    name: 'staffFacts',
    reads: ['coaches'],
    loads: ['states', 'personLinks', 'dancerFacts', 'coachRevisions', 'staffFacts'],
    writes: ['staffFacts'],
    handsOn: ['coachDocs', 'staffClubs'],
    run: async ({ coaches }, edges) => {
      const { coachDocs, staffFacts, staffClubs } = await deriveCoaches(coaches, edges);
      return { writes: [{ slot: 'staffFacts', facts: staffFacts }], handsOn: { coachDocs, staffClubs } };
    },
  }),
  step({
    name: 'staffRevisions',
    reads: ['staffClubs'],
    loads: [],
    writes: ['clubRevisions'],
    handsOn: [],
    run: ({ staffClubs }) => ({ writes: [{ slot: 'clubRevisions', ids: staffClubs }] }),
  }),
  step({
    name: 'clubDocuments',
    reads: ['clubs', 'staffClubs'],
    loads: ['states', 'dancerFacts', 'staffFacts', 'clubRevisions'],
    writes: ['clubDocuments'],
    handsOn: [],
    run: async ({ clubs, staffClubs }, edges) => ({
      writes: [{ slot: 'clubDocuments', docs: await deriveClubs([...new Set([...clubs, ...staffClubs])], edges) }],
    }),
  }),
  step({
    name: 'coachDocuments',
    reads: ['coachDocs'],
    loads: [],
    writes: ['coachDocuments'],
    handsOn: [],
    run: ({ coachDocs }) => ({ writes: [{ slot: 'coachDocuments', docs: coachDocs }] }),
  }),
  step({
    name: 'sweptDocuments',
    reads: ['own', 'swept'],
    loads: [],
    writes: ['sweptDocuments'],
    handsOn: [],
    run: ({ own, swept }) => ({ writes: [{ slot: 'sweptDocuments', docs: swept, stamps: own.stamps }] }),
  }),
];

/**
 * `before` is written, by every step that writes it, before any step writes `after`; with
 * `catchUp`, only before the last step that writes `after` (a later write covers the earlier).
 */
export interface OrderRule {
  before: Slot | '*';
  after: Slot;
  catchUp?: true;
  why: string;
}

export const ORDER_RULES: readonly OrderRule[] = [
  {
    before: 'competitionEntries',
    after: 'states',
    why:
      'a competition counts its entries by delta: an entry record newer than the stored state is read as it was when ' +
      'its batch started (its prev), so the replay of a batch that died between the two computes the same deltas; a state ' +
      'stored before its entries would count them again on the replay',
  },
  {
    before: 'personLinks',
    after: 'states',
    why:
      "a person's state lists its open link records and what its last batch recomputed: a link record newer than the " +
      'stored state is read as it was when its batch started (its prev), so the replay of a batch that died between the ' +
      'two folds the same periods; a state stored before its records would name open records that are not',
  },
  {
    before: 'states',
    after: 'dancerFacts',
    why:
      'a subject is re-derived only when a fact about it changed, or its member came back as a duplicate on a replay: ' +
      'a fact stored under a state that was not would look unchanged on the replay, and its subjects never be derived',
  },
  {
    before: 'dancerFacts',
    after: 'coachRevisions',
    why:
      "a fact lands before its subject's revision is bumped, so the derivation that reads the newest revision reads " +
      'every fact written before any bump: with two instances on different partitions, the one that bumped last sees ' +
      "the other's facts, and the other loses the guarded write",
  },
  { before: 'dancerFacts', after: 'clubRevisions', why: "as for coaches: a club's facts land before its revision is bumped" },
  {
    before: 'staffFacts',
    after: 'clubRevisions',
    catchUp: true,
    why: "a coach's staff facts are facts of its clubs: the clubs whose staff facts changed have their revisions bumped again after them",
  },
  {
    before: 'coachRevisions',
    after: 'coachDocuments',
    why:
      'with two instances on different partitions, the derivation that read the newest revision also read every fact ' +
      'written before it, and the older derivations lose the guarded write',
  },
  { before: 'coachRevisions', after: 'staffFacts', why: 'staff facts are written under the coach revision, like its document' },
  { before: 'clubRevisions', after: 'clubDocuments', why: 'as for coaches: the newest revision wins the guarded write' },
  {
    before: 'clubDocuments',
    after: 'coachDocuments',
    why:
      "the clock has no log to replay: a coach's nextDueAt is what brings a died sweep back to the coach, " +
      'so it lands after the clubs its transition cascades into',
  },
  {
    before: '*',
    after: 'sweptDocuments',
    why: "a swept person's nextDueAt is what brings a died sweep back to it, so its documents are the last write",
  },
];
