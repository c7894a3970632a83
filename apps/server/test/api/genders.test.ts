import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { audits, genders } from '../../src/db/schema/index.ts';
import { sharedTestApp } from '../support/app.ts';

const t = sharedTestApp();
let admin: string;
beforeAll(async () => {
  admin = await t.login();
});

describe('genders through the resource engine', () => {
  it('creates, lists, filters, sorts, pages, updates and deletes, auditing each change', async () => {
    const created = await t.post('CreateGender', { genderName: '  Female ' }, admin);
    expect(created.statusCode).toBe(200);
    const body = created.json();
    expect(body).toMatchObject({
      statusCode: 200,
      message: 'Gender created successfully',
      data: { genderName: 'Female' },
    });
    const code = body.data.genderCode as string;
    expect(code).toMatch(/^GENDER-[0-9A-Z]{16}$/);
    await t.post('CreateGender', { genderName: 'Male' }, admin);
    await t.post('CreateGender', { genderName: 'Non-binary' }, admin);

    const list = (
      await t.get('GetGenders', admin, { keyword: 'MAL', sortField: 'genderName', sortValue: 'asc' })
    ).json();
    expect(list.total).toBe(2);
    expect(list.data.map((g: { genderName: string }) => g.genderName)).toEqual(['Female', 'Male']);

    const page2 = (await t.get('GetGenders', admin, { limit: 2, page: 2 })).json();
    expect(page2.total).toBe(3);
    expect(page2.data.map((g: { genderName: string }) => g.genderName)).toEqual(['Female']);

    const updated = await t.post('UpdateGender', { genderCode: code, genderName: 'Woman' }, admin);
    expect(updated.json()).toMatchObject({
      message: 'Gender updated successfully',
      data: { genderName: 'Woman' },
    });
    const [audit] = await t.handle.db.select().from(audits).where(eq(audits.action, 'UPDATE'));
    expect(audit!.changes).toEqual({ genderName: { old: 'Female', new: 'Woman' } });
    expect(audit!.username).toBe('admin');

    const del = await t.post('DeleteGender', { genderCode: code }, admin);
    expect(del.json().message).toBe('Gender deleted successfully');
    expect(await t.handle.db.select().from(genders).where(eq(genders.genderCode, code))).toHaveLength(0);
    const again = await t.post('GetGenderByCode', { genderCode: code }, admin);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ statusCode: 404, message: 'Gender not found' });
  });

  it('refuses bad input (400), duplicates (409), no session (401) and no permission (403)', async () => {
    const missing = await t.post('CreateGender', {}, admin);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual([{ field: 'genderName', message: 'Gender name is required' }]);
    const long = await t.post('CreateGender', { genderName: 'x'.repeat(101) }, admin);
    expect(long.json().errors[0]).toEqual({
      field: 'genderName',
      message: 'Gender name must be at most 100 characters',
    });

    await t.post('CreateGender', { genderName: 'Agender' }, admin);
    const dup = await t.post('CreateGender', { genderName: 'AGENDER' }, admin);
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('A gender with this name already exists');

    expect((await t.get('GetGenders')).statusCode).toBe(401);
    const viewer = await t.userWith(['VIEW_GENDERS']);
    expect((await t.get('GetGenders', viewer.cookie)).statusCode).toBe(200);
    const refused = await t.post('CreateGender', { genderName: 'Other' }, viewer.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().statusCode).toBe(403);
    expect((await t.get('GetGenders', viewer.cookie, { sortField: 'passwordHash' })).statusCode).toBe(400);
  });
});
