/**
 * The consumer group that projects into `generation`: each generation has its own, so a rebuild's
 * group starts from the topic's beginning and its committed offsets carry on when it goes live.
 */
export const liveGroupId = (groupId: string, generation: number): string => `${groupId}.g${generation}`;
