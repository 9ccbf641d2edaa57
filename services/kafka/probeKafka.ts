import type { Admin } from 'kafkajs';

/** True when the cluster answers a metadata request within the time limit. */
export async function probeKafka(admin: Admin, timeoutMs = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([admin.describeCluster().then((c) => c.brokers.length > 0), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
