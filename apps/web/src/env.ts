const env = import.meta.env as Record<string, string | undefined>;

const nonEmpty = (value: string | undefined, fallback: string) => (value?.trim() ? value.trim() : fallback);

/** Deployments brand the footer through the environment; the defaults keep a bare build presentable. */
export const APP_NAME = 'Workforce Console';
export const COMPANY_NAME = nonEmpty(env.VITE_COMPANY_NAME, 'Workforce Corp');
export const VENDOR_NAME = nonEmpty(env.VITE_VENDOR_NAME, 'Workforce Console');
export const COPYRIGHT_YEAR = 2024;
