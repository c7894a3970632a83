import type { CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { cell, fillCell, seedStaff, toast } from '../performance-ui';
import { sharedE2E } from '../support/e2e';

/*
 * A day of 5,000 employees in edit mode, measured in a real browser (`npm run test:scale`). The
 * figures are ratios within the run: the same scroll over a day of 300 employees is the baseline,
 * so a grid whose cost grows with the day shows as a ratio above 1, whatever the machine's speed.
 * Nothing here is timed against a fixed figure; docs/performance.md keeps the latest results.
 */

const e2e = sharedE2E();
const DATE = '2024-04-10';
const SKILLS = Array.from({ length: 20 }, (_, i) => `Skill ${String.fromCharCode(65 + i)}`);
const BIG = Array.from({ length: 5000 }, (_, i) => `Big ${String(i + 1).padStart(4, '0')}`);
const SMALL = Array.from({ length: 300 }, (_, i) => `Small ${String(i + 1).padStart(3, '0')}`);
const { employeeCode } = seedStaff(e2e, SKILLS, [...BIG, ...SMALL], 100_001);
/** Scroll steps of 120 px, one per frame: a fast flick of the wheel. */
const STEPS = 90;

interface Frames {
  /** Milliseconds between frames while the box scrolled a step each frame. */
  p50: number;
  p95: number;
  max: number;
  /** Time the main thread spent in tasks over 50 ms while scrolling. */
  longTasks: number;
  /** The browser's own busy time per scroll step (script, style, layout, paint), from its metrics. */
  busyPerStep: number;
  /** Of which the page's script. */
  scriptPerStep: number;
}

async function startEditing(page: Page, keyword: string, first: string) {
  await page.goto(`/performance-snapshot?date=${DATE}&keyword=${keyword}`);
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await cell(page, 'Skill A', first).waitFor();
}

/** The renderer's busy seconds so far (tasks on its main thread), as Chromium counts them. */
async function busySeconds(cdp: CDPSession): Promise<{ task: number; script: number }> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const value = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
  return { task: value('TaskDuration'), script: value('ScriptDuration') };
}

/** Scrolls the grid down a step each frame and times the frames. */
async function scrollFrames(page: Page, steps: number): Promise<Frames> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const before = await busySeconds(cdp);
  const frames = await scrollSteps(page, steps);
  const after = await busySeconds(cdp);
  await cdp.detach();
  const perStep = (seconds: number) => (seconds * 1000) / steps;
  return {
    ...frames,
    busyPerStep: perStep(after.task - before.task),
    scriptPerStep: perStep(after.script - before.script),
  };
}

function scrollSteps(page: Page, steps: number): Promise<Omit<Frames, 'busyPerStep' | 'scriptPerStep'>> {
  return page.evaluate(async (n) => {
    const box = document.querySelector('.MuiTableContainer-root') as HTMLElement;
    let longTasks = 0;
    const observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) longTasks += e.duration;
    });
    observer.observe({ type: 'longtask' });
    const frame = () => new Promise<number>((r) => requestAnimationFrame(r));
    const gaps: number[] = [];
    let last = await frame();
    for (let i = 0; i < n; i++) {
      box.scrollTop += 120;
      const now = await frame();
      gaps.push(now - last);
      last = now;
    }
    observer.disconnect();
    gaps.sort((a, b) => a - b);
    const at = (q: number) => gaps[Math.min(gaps.length - 1, Math.floor(q * gaps.length))] ?? 0;
    return { p50: at(0.5), p95: at(0.95), max: at(1), longTasks };
  }, steps);
}

/**
 * After a jump to the end, how many times the rows under the box changed in the second that
 * followed half a second of rest: a grid that settles changes none.
 */
function changesAfterJump(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const box = document.querySelector('.MuiTableContainer-root') as HTMLElement;
    box.scrollTop = box.scrollHeight;
    await new Promise((r) => setTimeout(r, 500));
    let changes = 0;
    const observer = new MutationObserver((records) => {
      changes += records.length;
    });
    observer.observe(box, { subtree: true, childList: true, attributes: true });
    let scrolls = 0;
    const onScroll = () => scrolls++;
    box.addEventListener('scroll', onScroll);
    await new Promise((r) => setTimeout(r, 1000));
    observer.disconnect();
    box.removeEventListener('scroll', onScroll);
    return changes + scrolls;
  });
}

const round = (n: number) => Math.round(n * 10) / 10;

describe('a day of 5,000 employees in edit mode', () => {
  it('scrolls at the cost of a day of 300, settles after a jump to the end, and saves the last row', async () => {
    const page = await e2e.newPage({ viewport: { width: 1440, height: 900 } });
    await e2e.login(page);

    await startEditing(page, 'Small', SMALL[0] ?? '');
    await scrollFrames(page, 10); // warm-up: the first rows' styles and code paths
    const small = await scrollFrames(page, STEPS);

    await startEditing(page, 'Big', BIG[0] ?? '');
    await fillCell(page, 'Skill A', BIG[0] ?? '', '7');
    await scrollFrames(page, 10);
    const big = await scrollFrames(page, STEPS);
    const unsettled = await changesAfterJump(page);

    const last = BIG[BIG.length - 1] ?? '';
    await fillCell(page, 'Skill T', last, '4');
    await page.getByText('2 rows changed').waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await toast(page, 'Performances saved successfully').waitFor();

    const res = await page.request.post('/api/GetPerformancesByDateAndEmployeeCodes', {
      data: { date: DATE, employeeCodes: [employeeCode[BIG[0] ?? ''], employeeCode[last]] },
    });
    const rows: { employeeName: string; skills: { title: string; score: number | null }[] }[] = (
      await res.json()
    ).data;
    const score = (name: string, title: string) =>
      rows.find((r) => r.employeeName === name)?.skills.find((s) => s.title === title)?.score;
    expect(score(BIG[0] ?? '', 'Skill A')).toBe(7);
    expect(score(last, 'Skill T')).toBe(4);

    const figures = {
      'frame p50, 300 rows (ms)': round(small.p50),
      'frame p50, 5,000 rows (ms)': round(big.p50),
      'frame p95, 300 rows (ms)': round(small.p95),
      'frame p95, 5,000 rows (ms)': round(big.p95),
      'p50 ratio 5,000 / 300': round(big.p50 / small.p50),
      'p95 ratio 5,000 / 300': round(big.p95 / small.p95),
      'busy per step, 300 rows (ms)': round(small.busyPerStep),
      'busy per step, 5,000 rows (ms)': round(big.busyPerStep),
      'busy ratio 5,000 / 300': round(big.busyPerStep / small.busyPerStep),
      'script per step, 300 rows (ms)': round(small.scriptPerStep),
      'script per step, 5,000 rows (ms)': round(big.scriptPerStep),
      'long tasks, 300 rows (ms)': Math.round(small.longTasks),
      'long tasks, 5,000 rows (ms)': Math.round(big.longTasks),
      'changes in the second after settling': unsettled,
    };
    console.table(figures);
    expect(unsettled).toBe(0);
    await page.context().close();
  });
});
