import { describe, expect, it } from 'vitest';
import { enterAction, MatchTier, matchTier, rankOptions } from '../../src/registry/select/optionRanking';

const opt = (label: string) => ({ value: label.toUpperCase(), label });
const labels = (options: { label: string }[]) => options.map((o) => o.label);

describe('matchTier', () => {
  it('tells exact, prefix and substring matches apart, ignoring case, accents and spaces around', () => {
    expect(matchTier('Male', 'male')).toBe(MatchTier.Exact);
    expect(matchTier('Male', '  MALE ')).toBe(MatchTier.Exact);
    expect(matchTier('Malé', 'male')).toBe(MatchTier.Exact);
    expect(matchTier('wesley.grant', 'wesley.gr')).toBe(MatchTier.Prefix);
    expect(matchTier('Female', 'male')).toBe(MatchTier.Substring);
    expect(matchTier('New  Zealand', 'new zealand')).toBe(MatchTier.Exact);
    expect(matchTier('Other', 'male')).toBe(MatchTier.None);
  });
});

describe('rankOptions', () => {
  const genders = [opt('Agender'), opt('Female'), opt('Male'), opt('Male-identifying'), opt('Other')];

  it('puts the exact match first, then prefix, then substring matches, and drops the rest', () => {
    expect(labels(rankOptions(genders, 'Male'))).toEqual(['Male', 'Male-identifying', 'Female']);
  });

  it("keeps the given (server's) order within a tier", () => {
    const users = [opt('anna.wesley'), opt('wesley.brown'), opt('wesley.grant'), opt('zoe.wes')];
    expect(labels(rankOptions(users, 'wes'))).toEqual([
      'wesley.brown',
      'wesley.grant',
      'anna.wesley',
      'zoe.wes',
    ]);
    expect(labels(rankOptions(users, 'wesley.grant'))).toEqual(['wesley.grant']);
  });

  it('keeps options matched by another field at the end when the server found them', () => {
    const found = [opt('Jane Roe'), opt('Male'), opt('Female')];
    expect(labels(rankOptions(found, 'male', true))).toEqual(['Male', 'Female', 'Jane Roe']);
  });

  it('leaves the list as it is when nothing is typed', () => {
    expect(rankOptions(genders, '  ')).toEqual(genders);
  });
});

describe('enterAction', () => {
  const shown = (typed: string, all = [opt('Female'), opt('Male')]) => rankOptions(all, typed);

  it('takes an exact match at once, even while the search runs', () => {
    expect(enterAction({ typed: 'Male', settled: false, navigated: false, shown: shown('Male') })).toBe(
      'pick',
    );
  });

  it('waits for the search when nothing loaded matches exactly', () => {
    expect(enterAction({ typed: 'Mal', settled: false, navigated: false, shown: shown('Mal') })).toBe('wait');
    expect(
      enterAction({ typed: 'wesley.grant', settled: false, navigated: false, shown: shown('wesley.grant') }),
    ).toBe('wait');
  });

  it('takes the best match once the search has answered, and nothing when nothing matches', () => {
    expect(enterAction({ typed: 'Mal', settled: true, navigated: false, shown: shown('Mal') })).toBe('pick');
    expect(enterAction({ typed: 'zzz', settled: true, navigated: false, shown: shown('zzz') })).toBe(
      'nothing',
    );
  });

  it('takes what the user highlighted with the arrow keys', () => {
    expect(enterAction({ typed: 'ale', settled: false, navigated: true, shown: shown('ale') })).toBe('pick');
  });

  it('with nothing typed, takes the highlighted option if there is one', () => {
    expect(enterAction({ typed: '', settled: true, navigated: false, shown: shown('') })).toBe('pick');
    expect(enterAction({ typed: '', settled: false, navigated: false, shown: [] })).toBe('nothing');
  });
});
