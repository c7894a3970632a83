// The unstyled entry: the default one injects its CSS as an inline <style>, which the CSP refuses;
// the stylesheet is bundled instead (main.tsx imports react-toastify/ReactToastify.css).
import { toast } from 'react-toastify/unstyled';

/** One place for toasts so every screen shares the same look and behaviour. */
export const notify = {
  success(message: string) {
    toast.success(message);
  },
  error(message: string) {
    toast.error(message);
  },
};
