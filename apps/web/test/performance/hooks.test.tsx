import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, render, renderHook, waitFor } from '@testing-library/react';
import { type PerformanceRow, SCORE_MESSAGE } from '@wfc/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../src/api/client';
import { queryKeys } from '../../src/api/queryKeys';
import { useSavePerformances } from '../../src/performance/mutations';
import { defaultGridQuery } from '../../src/performance/query';
import { useCellHandlers } from '../../src/performance/useCellHandlers';
import { useGridDraft } from '../../src/performance/useGridDraft';
import { notify } from '../../src/ui/notify';
import { ok, reply, stubApi } from '../registry/harness';

const row = (employeeCode: string, scores: (number | null)[]): PerformanceRow => ({
  performanceCode: null,
  version: null,
  employeeCode,
  employeeId: employeeCode,
  employeeName: employeeCode,
  date: '2024-03-05',
  skills: scores.map((score, i) => ({ skillCode: `SKILL-${i}`, title: `Skill ${i}`, score })),
  total: { daily: null, monthly: null, yearly: null },
});
const ROWS = [row('EMP-1', [7, null]), row('EMP-2', [null, null])];

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** The page's draft and handler hooks wired as the page wires them. */
function renderGrid(rows = ROWS, queryString = 'date=2024-03-05') {
  return renderHook(
    ({ rows, queryString }) => {
      const draft = useGridDraft(rows, queryString);
      return { ...draft, ...useCellHandlers(rows, draft.dispatch) };
    },
    { initialProps: { rows, queryString } },
  );
}

describe('useGridDraft with the cell handlers', () => {
  it('turns keystrokes into the rows a save sends, and says whether anything changed', () => {
    const grid = renderGrid();
    expect(grid.result.current.dirty).toBe(false);
    act(() => grid.result.current.handlers.onInput({ row: 1, col: 1 }, '4'));
    expect(grid.result.current.dirty).toBe(true);
    expect(grid.result.current.pending).toEqual([
      {
        employeeCode: 'EMP-2',
        date: '2024-03-05',
        version: null,
        performancePerSkill: [
          { skillCode: 'SKILL-0', pointsEarned: '', totalPoints: 10 },
          { skillCode: 'SKILL-1', pointsEarned: '4', totalPoints: 10 },
        ],
      },
    ]);
    // Typing the saved value back is no change.
    act(() => grid.result.current.handlers.onInput({ row: 1, col: 1 }, ''));
    expect(grid.result.current.dirty).toBe(false);
  });

  it('unmarks a reverted cell after a moment', () => {
    vi.useFakeTimers();
    const grid = renderGrid();
    act(() => grid.result.current.handlers.onInput({ row: 0, col: 0 }, '11'));
    expect(grid.result.current.state.flash).toBe('EMP-1|SKILL-0');
    expect(grid.result.current.state.announcement).toBe(`${SCORE_MESSAGE}. "11" was reverted.`);
    act(() => vi.advanceTimersByTime(1400));
    expect(grid.result.current.state.flash).toBe('EMP-1|SKILL-0');
    act(() => vi.advanceTimersByTime(200));
    expect(grid.result.current.state.flash).toBeNull();
  });

  it('drops the drafts when the query names other rows', () => {
    const grid = renderGrid();
    act(() => grid.result.current.handlers.onInput({ row: 0, col: 1 }, '3'));
    grid.rerender({ rows: ROWS, queryString: 'date=2024-03-05' });
    expect(grid.result.current.dirty).toBe(true);
    grid.rerender({ rows: ROWS, queryString: 'date=2024-03-06' });
    expect(grid.result.current.dirty).toBe(false);
  });

  it('toasts a paste only when it refused values, and keeps the same handlers across renders', () => {
    const toast = vi.spyOn(notify, 'error').mockImplementation(() => undefined);
    const grid = renderGrid();
    const first = grid.result.current.handlers;
    act(() => first.onPaste({ row: 0, col: 0 }, '1\t2\n'));
    expect(toast).not.toHaveBeenCalled();
    expect(grid.result.current.state.announcement).toBe('Pasted 2 cells.');
    act(() => first.onPaste({ row: 1, col: 0 }, 'x\t5'));
    expect(toast).toHaveBeenCalledWith(
      'Pasted 1 cell; 1 value was not a score from 0 to 10 and left as before.',
    );
    expect(grid.result.current.pending.map((r) => r.employeeCode)).toEqual(['EMP-1', 'EMP-2']);
    expect(grid.result.current.handlers).toBe(first);
  });

  it('moves the focus between registered cells and reads the rows of the latest render', () => {
    const grid = renderGrid();
    const inputs = [0, 1, 2].map(() => document.createElement('input'));
    for (const el of inputs) document.body.append(el);
    const { handlers } = grid.result.current;
    handlers.register({ row: 0, col: 0 }, inputs[0]!);
    handlers.register({ row: 1, col: 0 }, inputs[1]!);
    handlers.register({ row: 2, col: 0 }, inputs[2]!);
    handlers.onMove({ row: 0, col: 0 }, 'Enter');
    expect(document.activeElement).toBe(inputs[1]);
    // The moves stop at the last row on screen, even after the rows changed under the handlers.
    handlers.onMove({ row: 1, col: 0 }, 'ArrowDown');
    expect(document.activeElement).toBe(inputs[1]);
    grid.rerender({ rows: [...ROWS, row('EMP-3', [null, null])], queryString: 'date=2024-03-05' });
    handlers.onMove({ row: 1, col: 0 }, 'ArrowDown');
    expect(document.activeElement).toBe(inputs[2]);
    for (const el of inputs) el.remove();
  });
});

describe('useSavePerformances', () => {
  const GRID = queryKeys.performance.grid(defaultGridQuery('2024-03-05'));

  function renderSave(handler: Parameters<typeof reply>[0]) {
    const calls = stubApi({
      CreateUpdatePerformances: reply(handler),
      GetPerformances: ok([], 'Fetched', 0),
    });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    client.setQueryData(GRID, { message: 'cached', data: ROWS });
    const onSaved = vi.fn();
    const onRefused = vi.fn();
    const onStale = vi.fn();
    const onPartlySaved = vi.fn();
    const result: { current?: ReturnType<typeof useSavePerformances> } = {};
    function Probe() {
      // The grid on screen, so that the save's invalidation fetches it again.
      useQuery({
        queryKey: GRID,
        queryFn: () => api.get('GetPerformances'),
        staleTime: Number.POSITIVE_INFINITY,
      });
      result.current = useSavePerformances({ onSaved, onRefused, onStale, onPartlySaved });
      return null;
    }
    render(
      <QueryClientProvider client={client}>
        <Probe />
      </QueryClientProvider>,
    );
    return { calls, client, onSaved, onRefused, onStale, onPartlySaved, save: () => result.current };
  }

  const pending = [
    {
      employeeCode: 'EMP-2',
      date: '2024-03-05',
      version: null,
      performancePerSkill: [
        { skillCode: 'SKILL-0', pointsEarned: '11', totalPoints: 10 },
        { skillCode: 'SKILL-1', pointsEarned: '4', totalPoints: 10 },
      ],
    },
  ];

  it('toasts, leaves edit mode, then fetches the grid again', async () => {
    const success = vi.spyOn(notify, 'success').mockImplementation(() => undefined);
    const t = renderSave(() => ok([], 'Performances saved successfully'));
    act(() => t.save()?.mutate(pending));
    await waitFor(() => expect(t.save()?.isSuccess).toBe(true));
    expect(success).toHaveBeenCalledWith('Performances saved successfully');
    expect(t.onSaved).toHaveBeenCalledTimes(1);
    expect(t.calls.callsTo('GetPerformances')).toHaveLength(1);
    expect(t.calls.lastCallTo('CreateUpdatePerformances')?.body).toMatchObject({
      'performances[0][employeeCode]': 'EMP-2',
      'performances[0][performancePerSkill][1][pointsEarned]': '4',
    });
  });

  it('maps a refusal onto the cells it names and toasts its message', async () => {
    const error = vi.spyOn(notify, 'error').mockImplementation(() => undefined);
    const t = renderSave(() => ({
      statusCode: 400,
      message: 'Invalid input',
      errors: [{ field: 'performances.0.performancePerSkill.0.pointsEarned', message: 'Too high' }],
    }));
    act(() => t.save()?.mutate(pending));
    await waitFor(() => expect(t.save()?.isError).toBe(true));
    expect(t.onRefused).toHaveBeenCalledWith(new Map([['EMP-2|SKILL-0', 'Too high']]));
    expect(error).toHaveBeenCalledWith('Invalid input');
    expect(t.onSaved).not.toHaveBeenCalled();
    expect(t.calls.callsTo('GetPerformances')).toHaveLength(0);
  });

  it('falls back to the module message, and an unreachable server marks no cell', async () => {
    const error = vi.spyOn(notify, 'error').mockImplementation(() => undefined);
    const t = renderSave(() => ({ statusCode: 500, message: '' }));
    act(() => t.save()?.mutate(pending));
    await waitFor(() => expect(t.save()?.isError).toBe(true));
    expect(error).toHaveBeenLastCalledWith('Failed to save performances');
    expect(t.onRefused).toHaveBeenCalledWith(new Map());
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('fetch failed')));
    act(() => t.save()?.mutate(pending));
    await waitFor(() =>
      expect(error).toHaveBeenLastCalledWith('Network error: the server could not be reached'),
    );
    expect(t.onRefused).toHaveBeenCalledTimes(1);
  });

  it('on a stale save (409 with the current rows) shows those rows in the grid and hands them over', async () => {
    const error = vi.spyOn(notify, 'error').mockImplementation(() => undefined);
    const current: PerformanceRow = { ...row('EMP-2', [3, 8]), performanceCode: 'PERF-2', version: 1 };
    const message = 'Scores of EMP-2 were changed by ann since you opened this date';
    const t = renderSave(() => ({ statusCode: 409, message, data: [current] }));
    act(() => t.save()?.mutate(pending));
    await waitFor(() => expect(t.save()?.isError).toBe(true));
    expect(t.onStale).toHaveBeenCalledWith(message, [current]);
    expect(t.client.getQueryData<{ data: PerformanceRow[] }>(GRID)?.data).toEqual([ROWS[0], current]);
    // Explained beside the grid rather than in a toast; no cell is refused.
    expect(error).not.toHaveBeenCalled();
    expect(t.onRefused).not.toHaveBeenCalled();
    expect(t.calls.callsTo('GetPerformances')).toHaveLength(0);
  });

  it('sends a whole day in chunks; a refused chunk leaves the earlier ones saved and marks its own cells', async () => {
    vi.spyOn(notify, 'error').mockImplementation(() => undefined);
    // 700 rows of 20 skills: 625 fit in a chunk's 40,000 form fields, 75 go in a second.
    const day = Array.from({ length: 700 }, (_, r) => ({
      employeeCode: `EMP-${r}`,
      date: '2024-03-05',
      version: null,
      performancePerSkill: Array.from({ length: 20 }, (_, c) => ({
        skillCode: `SKILL-${c}`,
        pointsEarned: '5',
        totalPoints: 10,
      })),
    }));
    let calls = 0;
    const t = renderSave(() =>
      ++calls === 1
        ? ok([], 'Performances saved successfully')
        : {
            statusCode: 400,
            message: 'Invalid input',
            errors: [{ field: 'performances.0.performancePerSkill.3.pointsEarned', message: 'Too high' }],
          },
    );
    act(() => t.save()?.mutate(day));
    await waitFor(() => expect(t.save()?.isError).toBe(true));
    const sent = t.calls.callsTo('CreateUpdatePerformances');
    expect(sent.map((c) => Object.keys(c.body).length)).toEqual([625 * 64 - 625, 75 * 64 - 75]);
    expect(sent[1]?.body['performances[0][employeeCode]']).toBe('EMP-625');
    expect(t.onPartlySaved).toHaveBeenCalledWith(day.slice(0, 625));
    // The error's place is in the refused chunk: its first row is the day's 626th.
    expect(t.onRefused).toHaveBeenCalledWith(new Map([['EMP-625|SKILL-3', 'Too high']]));
    // What was saved is fetched again.
    await waitFor(() => expect(t.calls.callsTo('GetPerformances')).toHaveLength(1));
  });

  it('treats any other conflict as a refusal', async () => {
    const error = vi.spyOn(notify, 'error').mockImplementation(() => undefined);
    const t = renderSave(() => ({ statusCode: 409, message: 'Something else' }));
    act(() => t.save()?.mutate(pending));
    await waitFor(() => expect(t.save()?.isError).toBe(true));
    expect(error).toHaveBeenCalledWith('Something else');
    expect(t.onStale).not.toHaveBeenCalled();
  });
});
