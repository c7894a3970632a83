// Before the first paint: the light or dark scheme the app will show, so that the page does not
// flash the other one while the app loads. The app's header switch stores the user's pick under
// this key; without one the system setting decides. Served as a file: the CSP allows no inline
// script. Static files are cached as immutable: rename the file (v2) whenever this changes.
(() => {
  let scheme = 'light';
  try {
    const mode = window.localStorage.getItem('wfc-color-mode');
    if (mode === 'light' || mode === 'dark') scheme = mode;
    else if (window.matchMedia?.('(prefers-color-scheme: dark)').matches) scheme = 'dark';
  } catch {
    // Storage may be blocked: the <meta name="color-scheme"> default (the system's) stands.
    return;
  }
  document.documentElement.setAttribute('data-color-scheme', scheme);
  document.querySelector('meta[name="color-scheme"]')?.setAttribute('content', scheme);
})();
