import { z } from 'zod';

/** The search across modules: `POST Search`. */
export const SEARCH_ENDPOINT = 'Search';

/** What one module gives at most, unless the request asks for fewer. */
export const SEARCH_LIMIT_PER_MODULE = 5;

export const searchRequestSchema = z.object({
  keyword: z
    .string({ error: 'Keyword is required' })
    .trim()
    .min(1, 'Keyword is required')
    .max(100, 'Keyword must be at most 100 characters'),
  /** Per module; a number, or its digits in a form-encoded body. */
  limit: z.coerce
    .number({ error: 'Limit must be a number' })
    .int('Limit must be a whole number')
    .min(1, 'Limit must be at least 1')
    .max(10, 'Limit must be at most 10')
    .default(SEARCH_LIMIT_PER_MODULE),
});

export const searchResultSchema = z.strictObject({
  /** The module's resource key (`employee`): the web app finds its definition by it. */
  resource: z.string(),
  code: z.string(),
  name: z.string(),
  /** The other identifiers it was searched by, where it has any (an employee's Employee Id). */
  detail: z.string().optional(),
});

/** The matches, module by module, each module's by name (those starting with the keyword first). */
export const searchAnswerSchema = z.strictObject({ results: z.array(searchResultSchema) });

export type SearchRequest = z.input<typeof searchRequestSchema>;
export type SearchResult = z.output<typeof searchResultSchema>;
export type SearchAnswer = z.output<typeof searchAnswerSchema>;

z.globalRegistry.add(searchResultSchema, { id: 'SearchResult' });
z.globalRegistry.add(searchAnswerSchema, { id: 'SearchAnswer' });
