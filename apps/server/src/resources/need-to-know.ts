import {
  detailFields,
  keepHidden,
  RESOURCES,
  seesAllDetails,
  seesDetails,
  type Viewer,
  visibleAuditEntry,
  visibleRecord,
} from '@wfc/contract';
import type { Executor } from '../db/client.ts';
import { ApiError } from '../http/envelope.ts';
import type { HandlerResult } from '../http/routes.ts';
import { fetchOne } from './read.ts';
import type { Row, ServerResource } from './server-resource.ts';

/*
 * Need-to-know fields on the way out (docs/privacy.md, "Who sees it"): every answer of a module
 * passes here, so a record's detail fields leave only for holders of VIEW_PERSONAL_DATA and for
 * the person the record is about. The rule itself is the contract's.
 */

const BY_COLLECTION = new Map(RESOURCES.map((def) => [def.listSegment, def]));

/** The definition of the module an audit entry's `collection` names. */
export const definitionOfCollection = (collection: string) => BY_COLLECTION.get(collection);

/** An audit entry as the viewer may see it: the audited record's hidden fields left out. */
export const visibleEntry = (viewer: Viewer, entry: Row): Row =>
  visibleAuditEntry(viewer, definitionOfCollection, entry);

/** Whether every record of the module leaves as stored for this viewer (nothing to look at). */
export const showsAll = (res: ServerResource, viewer: Viewer) =>
  !res.visible && seesAllDetails(viewer, res.def);

/** One record as the viewer may see it. */
export function shown(res: ServerResource, viewer: Viewer, record: Row): Row {
  return res.visible ? res.visible(viewer, record) : visibleRecord(viewer, res.def, record);
}

/** A handler's answer with each record in it (one, or a page) as the viewer may see it. */
export function shownResult<T extends HandlerResult | undefined>(
  res: ServerResource,
  viewer: Viewer,
  result: T,
): T {
  if (!result || showsAll(res, viewer)) return result;
  const { data } = result;
  const isRow = (v: unknown): v is Row => typeof v === 'object' && v !== null;
  if (Array.isArray(data))
    return { ...result, data: data.map((r) => (isRow(r) ? shown(res, viewer, r) : r)) };
  return isRow(data) ? { ...result, data: shown(res, viewer, data) } : result;
}

/**
 * A handler's answer as the viewer may see it, and its refusals too: a conflict carries the
 * record as it now stands.
 */
export async function answerShown<T extends HandlerResult | undefined>(
  res: ServerResource,
  viewer: Viewer,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return shownResult(res, viewer, await run());
  } catch (err) {
    const record = err instanceof ApiError ? err.answer?.data : undefined;
    if (!record || typeof record !== 'object' || showsAll(res, viewer)) throw err;
    const e = err as ApiError;
    throw new ApiError(e.statusCode, e.message, e.errors, e.headers, {
      data: shown(res, viewer, record as Row),
    });
  }
}

const isBody = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * An update body from someone who cannot see the record's detail fields, completed with their
 * stored values: the edit keeps them as they are, whatever was sent for them.
 */
export async function keepHiddenFields(
  res: ServerResource,
  db: Executor,
  viewer: Viewer | null,
  body: unknown,
): Promise<unknown> {
  if (!viewer || !isBody(body) || seesAllDetails(viewer, res.def)) return body;
  const code = body[res.def.code];
  if (typeof code !== 'string') return body;
  const stored = await fetchOne(db, res, code.trim());
  if (!stored || seesDetails(viewer, res.def, stored)) return body;
  return keepHidden(res.def, body, stored, detailFields(res.def));
}
