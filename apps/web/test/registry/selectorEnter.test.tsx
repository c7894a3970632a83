import { QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RESOURCE_BY_KEY } from '@wfc/contract';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '../../src/app/AppProviders';
import { createEmotionCache } from '../../src/app/emotion';
import { type Option, ResourceSelect } from '../../src/registry/select/ResourceSelect';
import {
  type Call,
  ok,
  renderRegistry,
  reply,
  resetScreensAfterEach,
  SCREEN_TEST_TIMEOUT,
  type Stub,
  stubApi,
} from './harness';

/*
 * Fast typing and Enter in a selector: the options already loaded are narrowed and ranked at once
 * (exact, prefix, then substring matches), and Enter takes the typed record, never the first of a
 * list that does not match what was typed.
 */

/** A list endpoint as the server answers it: case-insensitive substring on the name, sorted by it. */
function listOf(names: string[], codeKey: string, nameKey: string, prefix: string, calls: string[] = []) {
  return reply(answerList(names, codeKey, nameKey, prefix, calls));
}

function answerList(names: string[], codeKey: string, nameKey: string, prefix: string, calls: string[] = []) {
  const rows = [...names].sort().map((name, i) => ({ [codeKey]: `${prefix}-${i + 1}`, [nameKey]: name }));
  return (call: Call) => {
    const keyword = (call.query.keyword ?? '').toLowerCase();
    calls.push(keyword);
    const page = Number(call.query.page ?? 1);
    const limit = Number(call.query.limit ?? 100);
    const matching = rows.filter((r) => String(r[nameKey]).toLowerCase().includes(keyword));
    return ok(matching.slice((page - 1) * limit, page * limit), 'OK', matching.length);
  };
}

const GENDERS = ['Female', 'Male', 'Non-binary', 'Other'];

function GenderSelect() {
  const [value, setValue] = useState<Option | null>(null);
  return (
    <>
      <ResourceSelect
        source={RESOURCE_BY_KEY.gender}
        inputId="gender"
        label="Gender"
        value={value}
        onChange={setValue}
      />
      <output data-testid="chosen">{value?.label ?? ''}</output>
    </>
  );
}

function renderGenderSelect(handlers: Record<string, Stub>) {
  const api = stubApi(handlers);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <AppProviders emotionCache={createEmotionCache()} queryClient={queryClient}>
      <GenderSelect />
    </AppProviders>,
  );
  return api;
}

const optionTexts = () => screen.queryAllByRole('option').map((o) => o.textContent);

/** The label a react-select shows as its value, '' when empty. */
function shownValue(label: string): string {
  const control = screen.getByLabelText(label).closest('.MuiFormControl-root');
  return control?.querySelector('[class*="singleValue"]')?.textContent ?? '';
}

resetScreensAfterEach();

describe('selector: typing and Enter', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it("typing 'Male' fast and pressing Enter picks Male, not Female", async () => {
    const user = userEvent.setup();
    renderGenderSelect({ GetGenders: listOf(GENDERS, 'genderCode', 'genderName', 'GENDER') });
    await user.click(screen.getByLabelText('Gender'));
    await waitFor(() => expect(optionTexts()).toEqual(GENDERS));
    await user.type(screen.getByLabelText('Gender'), 'Male{Enter}');
    expect(screen.getByTestId('chosen').textContent).toBe('Male');
  });

  it('filters and ranks the loaded options at once, before the server search answers', async () => {
    const user = userEvent.setup();
    const keywords: string[] = [];
    const api = renderGenderSelect({
      GetGenders: listOf(GENDERS, 'genderCode', 'genderName', 'GENDER', keywords),
    });
    await user.click(screen.getByLabelText('Gender'));
    await waitFor(() => expect(optionTexts()).toEqual(GENDERS));
    await user.type(screen.getByLabelText('Gender'), 'male');
    // At once: no search has been sent yet.
    expect(keywords).toEqual(['']);
    expect(optionTexts()).toEqual(['Male', 'Female']);
    // Once the server answers (Female, Male by name) the exact match still comes first.
    await waitFor(() => expect(keywords).toEqual(['', 'male']));
    await waitFor(() => expect(api.callsTo('GetGenders')).toHaveLength(2));
    await new Promise((r) => setTimeout(r, 50));
    expect(optionTexts()).toEqual(['Male', 'Female']);
    await user.keyboard('{Enter}');
    expect(screen.getByTestId('chosen').textContent).toBe('Male');
  });

  it('Enter still takes what the user highlighted with the arrow keys', async () => {
    const user = userEvent.setup();
    renderGenderSelect({ GetGenders: listOf(GENDERS, 'genderCode', 'genderName', 'GENDER') });
    await user.click(screen.getByLabelText('Gender'));
    await waitFor(() => expect(optionTexts()).toEqual(GENDERS));
    await user.type(screen.getByLabelText('Gender'), 'male{ArrowDown}{Enter}');
    expect(screen.getByTestId('chosen').textContent).toBe('Female');
  });
});

describe('Add Employee: the User selector', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  // 150 users: the first page (100, by name) holds wesley.grant but not zed.target.
  const USERS = [
    ...Array.from({ length: 146 }, (_, i) => `user.${String(i).padStart(3, '0')}`),
    'alice.admin',
    'wesley.grant',
    'wesley.grantham',
    'zed.target',
  ];
  const openForm = (handlers: Record<string, Stub> = {}) =>
    renderRegistry('/registry/employee/create', ['VIEW_EMPLOYEES', 'CREATE_EMPLOYEE'], {
      GetUsers: listOf(USERS, 'userCode', 'username', 'USER'),
      GetDepartments: listOf(['Engineering'], 'departmentCode', 'name', 'DEPARTMENT'),
      ...handlers,
    });

  it('typing wesley.grant fast and pressing Enter picks wesley.grant, and submits nothing', async () => {
    const user = userEvent.setup();
    const api = openForm();
    await user.click(await screen.findByLabelText('User'));
    await waitFor(() => expect(screen.queryAllByRole('option')).toHaveLength(100));
    await user.type(screen.getByLabelText('User'), 'wesley.grant{Enter}');
    expect(shownValue('User')).toBe('wesley.grant');
    expect(api.callsTo('CreateEmployee')).toHaveLength(0);
  });

  it('holds an Enter pressed before the search answers, then takes the typed record', async () => {
    const user = userEvent.setup();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const users = answerList(USERS, 'userCode', 'username', 'USER');
    const api = openForm({
      GetUsers: reply(async (call) => {
        if (call.query.keyword) await gate;
        return users(call);
      }),
    });
    await user.click(await screen.findByLabelText('User'));
    await waitFor(() => expect(screen.queryAllByRole('option')).toHaveLength(100));
    // zed.target is not among the 100 loaded: nothing loaded matches, so Enter waits for the search.
    await user.type(screen.getByLabelText('User'), 'zed.tar{Enter}');
    await waitFor(() => expect(api.lastCallTo('GetUsers')?.query.keyword).toBe('zed.tar'));
    expect(shownValue('User')).toBe('');
    expect(screen.getByText('Loading...')).toBeTruthy();
    release();
    await waitFor(() => expect(shownValue('User')).toBe('zed.target'));
    expect(api.lastCallTo('GetUsers')?.query.keyword).toBe('zed.tar');
    expect(api.callsTo('CreateEmployee')).toHaveLength(0);
  });

  it('Enter picks nothing when nothing matches what is typed', async () => {
    const user = userEvent.setup();
    const api = openForm();
    await user.click(await screen.findByLabelText('User'));
    await waitFor(() => expect(screen.queryAllByRole('option')).toHaveLength(100));
    await user.type(screen.getByLabelText('User'), 'nobody{Enter}');
    await waitFor(() => expect(api.lastCallTo('GetUsers')?.query.keyword).toBe('nobody'));
    expect(await screen.findByText('No options')).toBeTruthy();
    expect(shownValue('User')).toBe('');
    expect(api.callsTo('CreateEmployee')).toHaveLength(0);
  });
});
