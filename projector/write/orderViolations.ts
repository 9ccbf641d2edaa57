import { ORDER_RULES, PLANNED, type CascadeStep, type Flow, type OrderRule, type Slot } from './cascadeSteps.ts';

/**
 * What is wrong with an order of steps: a flow value read before any step hands it on, stored
 * data loaded before a later step writes it (the load would miss the batch's own write), or a
 * broken ORDER_RULE. Empty for `writeOrder` (a unit test holds it so).
 */
export function orderViolations(steps: readonly CascadeStep[], rules: readonly OrderRule[] = ORDER_RULES): string[] {
  const problems: string[] = [];
  const available = new Set<keyof Flow>(PLANNED);
  steps.forEach((step, i) => {
    for (const value of step.reads) if (!available.has(value)) problems.push(`${step.name} reads ${value} before any step hands it on`);
    for (const value of step.handsOn) available.add(value);
    for (const later of steps.slice(i + 1)) {
      for (const slot of step.loads)
        if (later.writes.includes(slot)) problems.push(`${step.name} loads ${slot} before ${later.name} writes it`);
    }
  });
  const writers = (wrote: (slot: Slot) => boolean): number[] => steps.flatMap((step, i) => (step.writes.some(wrote) ? [i] : []));
  for (const rule of rules) {
    const after = writers((slot) => slot === rule.after);
    const before = writers((slot) => (rule.before === '*' ? slot !== rule.after : slot === rule.before));
    if (after.length === 0 || before.length === 0) problems.push(`no step writes ${after.length === 0 ? rule.after : rule.before}`);
    else if (Math.max(...before) >= (rule.catchUp ? Math.max(...after) : Math.min(...after)))
      problems.push(`${rule.after} is written before ${rule.before}: ${rule.why}`);
  }
  return problems;
}
