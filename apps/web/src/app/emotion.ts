import createCache, { type EmotionCache } from '@emotion/cache';

const PLACEHOLDER = '__CSP_NONCE__';

/**
 * The server stamps a fresh nonce into this meta tag on every response and allows only styles
 * carrying it; without the nonce on Emotion's style tags the browser drops every MUI style.
 * Under the Vite dev server the placeholder stays as is and no CSP applies.
 */
export function readCspNonce(doc: Document = document): string | undefined {
  const content = doc.querySelector('meta[property="csp-nonce"]')?.getAttribute('content') ?? '';
  return content && content !== PLACEHOLDER ? content : undefined;
}

export function createEmotionCache(nonce = readCspNonce()): EmotionCache {
  return createCache({ key: 'wfc', nonce, prepend: true });
}
