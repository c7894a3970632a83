import { describe, expect, it } from 'vitest';
import {
  type SignInFigures,
  signInSchedule,
  signInVerdicts,
  teamBatch,
  teamCount,
} from '../../../bench/lib/signins.ts';

describe('signInSchedule', () => {
  it('spreads the sign-ins evenly from the start, the last one window / count before its end', () => {
    expect(signInSchedule(4, 1000)).toEqual([0, 250, 500, 750]);
    expect(signInSchedule(5000, 600_000).at(-1)).toBe(599_880);
  });

  it('plans nothing for no sign-ins', () => {
    expect(signInSchedule(0, 1000)).toEqual([]);
  });
});

describe('teamCount', () => {
  it('makes teams of about the size asked, at least one', () => {
    expect(teamCount(5000, 100)).toBe(50);
    expect(teamCount(5049, 100)).toBe(50);
    expect(teamCount(30, 100)).toBe(1);
  });
});

describe('teamBatch', () => {
  it('scores every member on every skill for the date, out of 10, moving with the seed', () => {
    const a = teamBatch(['E1', 'E2'], ['S1', 'S2', 'S3'], '2026-10-08', 1);
    expect(a).toHaveLength(2);
    expect(a[1]).toEqual({
      employeeCode: 'E2',
      date: '2026-10-08',
      performancePerSkill: [
        { skillCode: 'S1', pointsEarned: '8', totalPoints: 10 },
        { skillCode: 'S2', pointsEarned: '0', totalPoints: 10 },
        { skillCode: 'S3', pointsEarned: '3', totalPoints: 10 },
      ],
    });
    const b = teamBatch(['E1', 'E2'], ['S1', 'S2', 'S3'], '2026-10-08', 2);
    expect(b[1]!.performancePerSkill.map((s) => s.pointsEarned)).toEqual(['9', '1', '4']);
  });
});

describe('signInVerdicts', () => {
  const figures: SignInFigures = {
    saveP99Alone: 400,
    saveP99During: 700,
    errors: 0,
    signIns: { planned: 5000, succeeded: 5000, windowS: 600, lastAnswerS: 600.2 },
    scopedRps: 950,
    unscopedRps: 1000,
  };
  const met = (f: SignInFigures) => Object.fromEntries(signInVerdicts(f).map((v) => [v.measure, v.met]));

  it('meets every target when nothing failed, the p99 did not double and the team page keeps up', () => {
    expect(Object.values(met(figures))).toEqual([true, true, true, true]);
    expect(signInVerdicts(figures)[2]!.value).toBe('1.75 (700 / 400 ms)');
  });

  it('fails on a save p99 more than doubled, any error, a sign-in missing or late, a slower team page', () => {
    expect(met({ ...figures, saveP99During: 801 })['save p99 during / alone']).toBe(false);
    expect(met({ ...figures, errors: 1 }).errors).toBe(false);
    const signIns = (s: Partial<SignInFigures['signIns']>) =>
      met({ ...figures, signIns: { ...figures.signIns, ...s } })['sign-ins answered 200'];
    expect(signIns({ succeeded: 4999 })).toBe(false);
    expect(signIns({ lastAnswerS: 606 })).toBe(false);
    expect(met({ ...figures, scopedRps: 899 })['scoped / unscoped page req/s']).toBe(false);
  });
});
