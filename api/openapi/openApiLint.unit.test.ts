import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { OPENAPI_FILE } from './openApiFile.ts';

// The committed document against Redocly's `recommended` rules (the ruleset `redocly lint` applies
// by default), with no exception: every finding, error or warning, fails the test.

describe('openapi.json under Redocly’s recommended rules', () => {
  it('has no error and no warning', async () => {
    const problems = await lintFromString({
      source: readFileSync(OPENAPI_FILE, 'utf8'),
      absoluteRef: fileURLToPath(OPENAPI_FILE),
      config: await createConfig({ extends: ['recommended'] }),
    });
    const findings = problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`);
    expect(findings).toEqual([]);
  });

  it('would report a finding (the linter runs with its rules on)', async () => {
    const withoutSecurity = { ...(JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Record<string, unknown>), security: undefined };
    const problems = await lintFromString({
      source: JSON.stringify(withoutSecurity),
      absoluteRef: fileURLToPath(OPENAPI_FILE),
      config: await createConfig({ extends: ['recommended'] }),
    });
    expect(problems.map((p) => p.ruleId)).toContain('security-defined');
  });
});
