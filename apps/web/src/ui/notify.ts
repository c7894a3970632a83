import { toast } from 'react-toastify';

/** One place for toasts so every screen shares the same look and behaviour. */
export const notify = {
  success(message: string) {
    toast.success(message);
  },
  error(message: string) {
    toast.error(message);
  },
};
