import { describe, expect, it } from 'vitest';
import { ClientSlotTable } from './clientSlotTable.ts';

describe('ClientSlotTable', () => {
  it('finds what was added and nothing else', () => {
    const table = new ClientSlotTable(16, 42);
    table.add('203.0.113.7', 0);
    table.add('2001:db8::1', 1);
    expect(table.get('203.0.113.7')).toBe(0);
    expect(table.get('2001:db8::1')).toBe(1);
    expect(table.get('203.0.113.8')).toBeUndefined();
    expect(table.size).toBe(2);
  });

  it('grows past its load limit without losing entries', () => {
    const table = new ClientSlotTable(16, 7);
    for (let i = 0; i < 10_000; i += 1) table.add(`key-${i}`, i);
    expect(table.size).toBe(10_000);
    for (let i = 0; i < 10_000; i += 1) expect(table.get(`key-${i}`)).toBe(i);
    expect(table.byteLength).toBeLessThanOrEqual((10_000 * 12) / 0.375);
  });

  it('drops what retain rejects, reports it, and shrinks when sparse', () => {
    const table = new ClientSlotTable(16, 1);
    for (let i = 0; i < 20_000; i += 1) table.add(`k${i}`, i);
    const large = table.byteLength;
    const dropped = table.retain((slot) => slot < 100);
    expect(dropped).toHaveLength(19_900);
    expect(new Set(dropped).has(50)).toBe(false);
    expect(table.size).toBe(100);
    expect(table.get('k50')).toBe(50);
    expect(table.get('k5000')).toBeUndefined();
    expect(table.byteLength).toBeLessThan(large);
  });

  it('hashes with its seed, so different processes place keys differently', () => {
    const a = new ClientSlotTable(16, 1);
    const b = new ClientSlotTable(16, 2);
    a.add('x', 3);
    b.add('x', 4);
    expect([a.get('x'), b.get('x')]).toEqual([3, 4]);
  });
});
