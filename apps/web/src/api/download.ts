import type { ApiEnvelope } from '@wfc/contract';
import { apiUrl, type Query } from './client';

export type DownloadOutcome = { ok: true } | { ok: false; status: number; message: string };

/** Pure: the file name a Content-Disposition header gives, if any. */
export function dispositionFilename(header: string | null): string | undefined {
  return header?.match(/filename="([^"]+)"/)?.[1];
}

/**
 * Fetches a file the server writes (a CSV export) and hands it to the browser as a download. A
 * fetch rather than a plain link, so a refusal can be told to the user instead of replacing the
 * page, and so it also works when the API lives on another host.
 */
export async function downloadFile(
  endpoint: string,
  query: Query,
  fallback: { filename: string; failed: string },
  /** Sent as a form, as the API client sends a POST: for a download that the server records. */
  body?: Record<string, string>,
): Promise<DownloadOutcome> {
  let res: Response;
  try {
    res = await fetch(
      apiUrl(endpoint, query),
      body
        ? {
            credentials: 'include',
            method: 'POST',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams(body),
          }
        : { credentials: 'include' },
    );
  } catch {
    return { ok: false, status: 0, message: 'Network error: the server could not be reached' };
  }
  if (!res.ok) {
    const env = (await res.json().catch(() => null)) as ApiEnvelope | null;
    return { ok: false, status: res.status, message: env?.message || fallback.failed };
  }
  const blob = await res.blob();
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = dispositionFilename(res.headers.get('Content-Disposition')) ?? fallback.filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the object URL after the click returns; release it once they surely have.
  setTimeout(() => URL.revokeObjectURL(href), 30_000);
  return { ok: true };
}
