import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sharedTestApp } from '../../support/app.ts';

/*
 * A client generated from the API description must see the records, not `unknown`: the types
 * openapi-typescript writes from /api/docs/json are compiled against code that uses them, and
 * against code that must not compile if they were loose.
 */

const t = sharedTestApp();

const USES = `
import type { components, operations } from './api';

type Gender = components['schemas']['GenderRecord'];
type GenderPage = operations['GetGenders']['responses'][200]['content']['application/json'];
type UpdatedRole = operations['UpdateRole']['responses'][200]['content']['application/json']['data'];

export const page: GenderPage = {
  statusCode: 200,
  message: 'Genders fetched successfully',
  data: [{ genderCode: 'GENDER-1', genderName: 'Male', createdAt: '', updatedAt: '', version: 1 }],
  total: 1,
};
export const name: string = ({} as Gender).genderName;
export const version: number = ({} as NonNullable<UpdatedRole>).version;
export const permissions: string[] = ({} as NonNullable<UpdatedRole>).rolePermissions.map((p) => p.permissionCode);

// @ts-expect-error a gender without its version is not a GenderRecord
export const missing: Gender = { genderCode: 'GENDER-1', genderName: 'Male', createdAt: '', updatedAt: '' };
// @ts-expect-error a version is a number
export const wrong: Gender = { genderCode: 'G', genderName: 'M', createdAt: '', updatedAt: '', version: '1' };
`;

describe('a client generated from the API description', () => {
  it('compiles, and its answers are typed as the records', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const types = astToString(await openapiTS(doc));
    expect(types).toContain('GenderRecord');
    const dir = await mkdtemp(join(tmpdir(), 'wfc-client-'));
    try {
      await writeFile(join(dir, 'api.d.ts'), types);
      await writeFile(join(dir, 'uses.ts'), USES);
      const program = ts.createProgram([join(dir, 'uses.ts')], {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        skipLibCheck: true,
        types: [],
      });
      const problems = ts
        .getPreEmitDiagnostics(program)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(problems).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
