/*
 * Pure: how a session is named to its user. The browser and system come from the User-Agent the
 * session signed in with, coarsely: enough to tell "Chrome on Windows" from "Safari on iPhone".
 */

const BROWSERS: readonly [RegExp, string][] = [
  [/Edg\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/Firefox\//, 'Firefox'],
  [/Chrom(e|ium)\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Android/, 'Android'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

export function describeUserAgent(userAgent: string | null): string {
  if (!userAgent) return 'Unknown browser';
  const browser = BROWSERS.find(([re]) => re.test(userAgent))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(userAgent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? 'Unknown browser';
}

/** The recovery codes as a text file to keep, one per line, saying what they are for. */
export function recoveryCodesFile(codes: readonly string[], username: string, now: Date): string {
  return [
    `Workforce Console recovery codes for ${username}`,
    `Created ${now.toISOString().slice(0, 10)}. Each code signs in once, in place of a code from your app.`,
    '',
    ...codes,
    '',
  ].join('\n');
}
