import { ToastContainer } from 'react-toastify/unstyled';

/** Toasts show top-right, at most 3 at once, each closing after 1000 ms. */
export const TOAST_LIMIT = 3;
export const TOAST_AUTO_CLOSE_MS = 1000;
/** Below the 64 px header, so that no toast covers Sign Out or the menu. */
const TOAST_TOP_PX = 72;

export function Toasts() {
  return (
    <ToastContainer
      position="top-right"
      limit={TOAST_LIMIT}
      autoClose={TOAST_AUTO_CLOSE_MS}
      newestOnTop
      pauseOnFocusLoss={false}
      theme="light"
      style={{ top: TOAST_TOP_PX }}
    />
  );
}
