/** Text matched literally by ILIKE: its wildcards and escape character escaped. */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
