import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Document, type RulesetDefinition, Spectral } from '@stoplight/spectral-core';
import { Json } from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp } from '../../support/app.ts';

/*
 * The API description at /api/docs/json, checked by the two linters API tooling relies on, with
 * their standard rule sets: Spectral's `spectral:oas` and Redocly's `recommended`. Any error or
 * warning fails, named by rule and place.
 */

const t = sharedTestApp();
let source: string;

beforeAll(async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(res.statusCode).toBe(200);
  source = res.body;
});

describe('the API description', () => {
  it('has no error or warning by Spectral (spectral:oas)', { timeout: 60_000 }, async () => {
    const spectral = new Spectral();
    // The rule set package declares its object without the optional fields the type requires.
    spectral.setRuleset({ extends: [[oas as RulesetDefinition, 'recommended']] });
    const results = await spectral.run(new Document(source, Json, 'openapi.json'));
    // Severities: 0 error, 1 warning, 2 information, 3 hint.
    const problems = results
      .filter((r) => r.severity <= 1)
      .map((r) => `${r.code}: ${r.message} at ${r.path.join('.')}`);
    expect(problems).toEqual([]);
  });

  it('has no error or warning by Redocly (recommended)', { timeout: 60_000 }, async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const results = await lintFromString({ source, absoluteRef: 'openapi.json', config });
    const problems = results
      .filter((p) => p.severity === 'error' || p.severity === 'warn')
      .map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`);
    expect(problems).toEqual([]);
  });
});
