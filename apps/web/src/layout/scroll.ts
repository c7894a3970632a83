/** The sticky header covers the top of the page; a hash target lands this far below it. */
export const HASH_SCROLL_OFFSET_PX = 50;
const MAX_WAIT_FRAMES = 30;

const behaviour = (): ScrollBehavior =>
  window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth';

/**
 * Scrolls to the element named by the hash, offset for the header, or to the top without one.
 * A freshly loaded screen may render its target a few frames late, so the lookup is retried.
 */
export function scrollToHash(hash: string, framesLeft = MAX_WAIT_FRAMES): void {
  const id = decodeURIComponent(hash.replace(/^#/, ''));
  if (!id) {
    window.scrollTo({ top: 0, behavior: behaviour() });
    return;
  }
  const target = document.getElementById(id);
  if (target) {
    const top = target.getBoundingClientRect().top + window.scrollY - HASH_SCROLL_OFFSET_PX;
    window.scrollTo({ top: Math.max(0, top), behavior: behaviour() });
  } else if (framesLeft > 0) {
    requestAnimationFrame(() => scrollToHash(hash, framesLeft - 1));
  }
}
