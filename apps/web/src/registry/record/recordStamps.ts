import type { ColumnDef, RegistryRecordOf } from '@wfc/contract';
import { formatCell } from '../format';
import type { RegistryRecord } from '../queries';

/** One line of a record's details: when it was created or last updated, and by whom if known. */
export interface RecordStamp {
  label: 'Created' | 'Updated';
  when: string;
  /** The acting user's name, from the audit log; unknown for seeded records or without VIEW_AUDITS. */
  by?: string;
}

const CREATED: ColumnDef = { path: 'createdAt', label: 'Created', format: 'datetime' };
const UPDATED: ColumnDef = { path: 'updatedAt', label: 'Updated', format: 'datetime' };

/** Who acted in an audit entry, if it names anyone. */
export const actorOf = (entry: Pick<RegistryRecordOf<'audit'>, 'user'> | undefined): string | undefined =>
  entry?.user?.username || undefined;

/**
 * A record's created and updated stamps, formatted as the lists format their times. A record never
 * updated (its updatedAt is its createdAt) has no 'Updated' stamp; one without times has none.
 */
export function recordStamps(
  record: RegistryRecord,
  by: { created?: string; updated?: string } = {},
): RecordStamp[] {
  const { createdAt, updatedAt } = record;
  const stamps: RecordStamp[] = [];
  if (typeof createdAt === 'string')
    stamps.push({ label: 'Created', when: formatCell(record, CREATED), by: by.created });
  if (typeof updatedAt === 'string' && updatedAt !== createdAt)
    stamps.push({ label: 'Updated', when: formatCell(record, UPDATED), by: by.updated });
  return stamps;
}

/** 'Created 3 Mar 2026, 14:05 by admin'. */
export const stampText = ({ label, when, by }: RecordStamp) => `${label} ${when}${by ? ` by ${by}` : ''}`;
