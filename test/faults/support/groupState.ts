import { AssignerProtocol, type Admin } from 'kafkajs';
import { fetchCommittedOffsets } from '../../../services/kafka/index.ts';

/** Offsets the group has committed on the topic, summed over partitions (0 for none yet). */
export async function committedTotal(admin: Admin, groupId: string, topic: string): Promise<number> {
  const offsets = await fetchCommittedOffsets(admin, groupId, topic);
  return [...offsets.values()].reduce((n, offset) => n + Math.max(0, offset), 0);
}

/** Messages the topic holds (high watermarks summed; the test topics are never truncated). */
export async function topicEnd(admin: Admin, topic: string): Promise<number> {
  return (await admin.fetchTopicOffsets(topic)).reduce((n, p) => n + Number(p.high), 0);
}

/** The partitions of `topic` assigned to each live member of the group (empty while it rebalances). */
export async function assignments(admin: Admin, groupId: string, topic: string): Promise<number[][]> {
  const { groups } = await admin.describeGroups([groupId]);
  const group = groups[0];
  if (!group || group.state !== 'Stable') return [];
  return group.members.map((m) => [...(AssignerProtocol.MemberAssignment.decode(m.memberAssignment)?.assignment[topic] ?? [])].sort());
}
