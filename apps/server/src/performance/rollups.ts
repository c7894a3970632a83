/*
 * The summaries' rebuild at the path the demo seed, the benchmark loader and the seed's test import
 * it from: their files are being changed by others, so their imports move to summaries/ with
 * their next change, and this file goes then.
 */
export { rebuildPerformanceRollups } from './summaries/rollups.ts';
