import { ToastContainer } from 'react-toastify/unstyled';

/** Toasts show top-right, at most 3 at once, each closing after 1000 ms. */
export const TOAST_LIMIT = 3;
export const TOAST_AUTO_CLOSE_MS = 1000;

export function Toasts() {
  return (
    <ToastContainer
      position="top-right"
      limit={TOAST_LIMIT}
      autoClose={TOAST_AUTO_CLOSE_MS}
      newestOnTop
      pauseOnFocusLoss={false}
      theme="light"
    />
  );
}
