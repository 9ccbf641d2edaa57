import type { Admin } from 'kafkajs';

/** Messages the topic holds now (0 when it does not exist): the sum of high minus low watermarks. */
export async function countTopicMessages(admin: Admin, topic: string): Promise<number> {
  if (!(await admin.listTopics()).includes(topic)) return 0;
  return (await admin.fetchTopicOffsets(topic)).reduce((n, p) => n + Number(p.high) - Number(p.low), 0);
}
