let registryChunk: Promise<unknown> | undefined;

/**
 * Fetches the registry screens' chunk once, so that the first click on a module is instant; later
 * calls share the same fetch. A failure is left to the route's own import, which shows it.
 */
export function prefetchRegistry(): Promise<unknown> {
  registryChunk ??= import('./routes').catch(() => undefined);
  return registryChunk;
}

/** The fetch, if one was started: a test waits for it before its environment is torn down. */
export const startedRegistryPrefetch = (): Promise<unknown> | undefined => registryChunk;
