import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { backChain, MAX_BACK_DEPTH, readBackTarget, stateFrom } from '../../src/registry/paths';
import { OTAGO, STAMP } from '../support/geography';
import { type Call, ok, renderRegistry, reply, resetScreensAfterEach, SCREEN_TEST_TIMEOUT } from './harness';

/*
 * Back returns to the page a screen was opened from, at any depth: each screen hands on its own
 * way back with the back target, in the history state, so URLs stay as they are and shareable.
 */

const COUNTRY = { countryCode: 'COUNTRY-1', name: 'New Zealand', iso2: 'NZ', iso3: 'NZL', ...STAMP };
const CITY = {
  cityCode: 'CITY-1',
  name: 'Dunedin',
  state: { stateCode: 'STATE-1', name: 'Otago' },
  country: { countryCode: 'COUNTRY-1', name: 'New Zealand' },
  ...STAMP,
};

resetScreensAfterEach();

describe('nested back targets', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('Country > View States > a state > View Cities > Back > Back > Back > Back unwinds step by step', async () => {
    const user = userEvent.setup();
    const api = renderRegistry(
      '/registry/countries?keyword=zealand',
      ['VIEW_COUNTRIES', 'VIEW_STATES', 'VIEW_CITIES'],
      {
        GetCountries: ok([COUNTRY], 'Countries fetched successfully', 1),
        GetCountryByCode: ok(COUNTRY, 'Country fetched successfully'),
        GetStatesByCountryCode: reply((call: Call) =>
          ok(call.body.countryCode === 'COUNTRY-1' ? [OTAGO] : [], 'States fetched successfully', 1),
        ),
        GetStateByCode: ok(OTAGO, 'State fetched successfully'),
        GetCitiesByStateCode: ok([CITY], 'Cities fetched successfully', 1),
        GetStates: ok([], 'States fetched successfully', 0),
      },
    );
    const at = async (path: string, heading: string) => {
      await waitFor(() =>
        expect(`${api.router.state.location.pathname}${api.router.state.location.search}`).toBe(path),
      );
      expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeTruthy();
    };
    const back = () => user.click(screen.getByRole('button', { name: 'Back' }));

    await user.click(await screen.findByRole('radio', { name: 'Select New Zealand' }));
    await user.click(screen.getByRole('button', { name: 'View' }));
    await at('/registry/country/COUNTRY-1', 'View Country');
    await user.click(await screen.findByRole('button', { name: 'View States' }));
    await at('/registry/country/COUNTRY-1/states', 'Country States');
    await user.click(await screen.findByRole('radio', { name: 'Select Otago' }));
    await user.click(screen.getByRole('button', { name: 'View' }));
    await at('/registry/state/STATE-1', 'View State');
    await user.click(await screen.findByRole('button', { name: 'View Cities' }));
    await at('/registry/state/STATE-1/cities', 'State Cities');

    await back();
    await at('/registry/state/STATE-1', 'View State');
    await back();
    await at('/registry/country/COUNTRY-1/states', 'Country States');
    await back();
    await at('/registry/country/COUNTRY-1', 'View Country');
    await back();
    await at('/registry/countries?keyword=zealand', 'Countries');
  });
});

describe('back chain in the history state', () => {
  it('carries each screen’s own way back', () => {
    const first = stateFrom('/registry/countries', null);
    const second = stateFrom('/registry/country/C', first);
    const third = stateFrom('/registry/country/C/states', second, { preset: {} });
    expect(third).toEqual({
      preset: {},
      back: '/registry/country/C/states',
      backState: { back: '/registry/country/C', backState: { back: '/registry/countries' } },
    });
    expect(readBackTarget(third)).toEqual({
      to: '/registry/country/C/states',
      state: { back: '/registry/country/C', backState: { back: '/registry/countries' } },
    });
  });

  it('follows only paths of this app, and keeps at most MAX_BACK_DEPTH steps', () => {
    expect(readBackTarget({ back: '//evil.example/x' })).toBeUndefined();
    expect(readBackTarget({ back: 'https://evil.example/' })).toBeUndefined();
    expect(backChain({ back: '/a', backState: { back: '//evil' } })).toEqual({ back: '/a' });
    let state: unknown = null;
    for (let i = 0; i < MAX_BACK_DEPTH + 5; i++) state = stateFrom(`/p${i}`, state);
    let depth = 0;
    for (let s = backChain(state); s; s = s.backState) depth++;
    expect(depth).toBe(MAX_BACK_DEPTH);
  });
});
