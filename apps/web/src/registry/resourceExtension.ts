import type { SvgIconComponent } from '@mui/icons-material';
import type { PermissionName, RegistryRecordOf, ResourceDef, ResourceKey } from '@wfc/contract';
import { type ComponentType, createContext, useContext } from 'react';
import type { FieldChange } from './conflict/conflict';
import type { RegistryRecord } from './queries';
import type { FormMode } from './record/formValues';

/** A screen of its own for a module's view, create and update routes. */
export type FormScreen = ComponentType<{ def: ResourceDef; mode: FormMode }>;

/** What a section under a record's view is given. */
export interface ViewPanelProps {
  code: string;
}

/** A way from a record's view to another part of the console that is about the record. */
export interface RecordLink {
  label: string;
  icon: SvgIconComponent;
  /** Offered only to those holding it. */
  permission: PermissionName;
  to(code: string): string;
}

/**
 * Where a module differs from what its definition describes: the web's counterpart of the
 * server definition's hooks. The generic screens read it; nothing else names a module.
 */
export interface ResourceExtension<R> {
  /** The view, create and update screens, when the definition cannot describe the form. */
  form?: FormScreen;
  /**
   * What a record is called in its breadcrumb, where its definition's name field does not say it
   * (an audit entry is called by what it records, not by its action).
   */
  recordName?(row: R): string;
  /**
   * List cells said otherwise than their column's value, by column path (an audit entry's module
   * by the Modules screen's name for it).
   */
  cells?: Readonly<Record<string, (row: R) => string>>;
  /** A list filter's choices said otherwise than their values, by the filter's parameter. */
  choiceLabels?: Readonly<Record<string, (choice: string) => string>>;
  /** Sections under the record's view, by name, in order. */
  viewPanels?: Readonly<Record<string, ComponentType<ViewPanelProps>>>;
  /** Offered on the record's view after its sub-lists. */
  links?: readonly RecordLink[];
  /**
   * What a delete refused as stale reports as changed since the row was read; by default the
   * form's fields, compared as the form compares them.
   */
  deleteChanges?(row: R, theirs: R): FieldChange[];
}

/** Each module's extension, typed by its own record: a key that is no module's does not compile. */
export type ResourceExtensions = {
  readonly [K in ResourceKey]?: ResourceExtension<RegistryRecordOf<K>>;
};

const NONE: ResourceExtension<RegistryRecord> = {};

/**
 * The extension of `def`'s module. A screen holds the records its definition's schema describes
 * (the API tests parse every answer with it), so the entry, typed by that record, is handed out
 * as taking the screens' records.
 */
export const extensionOf = (
  extensions: ResourceExtensions,
  def: ResourceDef,
): ResourceExtension<RegistryRecord> =>
  (extensions[def.key] as ResourceExtension<RegistryRecord> | undefined) ?? NONE;

/*
 * The map is handed down from the routes rather than imported: the modules' own screens build on
 * the generic ones, which would otherwise import them back.
 */
const ExtensionsContext = createContext<ResourceExtensions>({});

export const ResourceExtensionsProvider = ExtensionsContext.Provider;

/** What `def`'s module adds to or changes in the generic screens. */
export const useResourceExtension = (def: ResourceDef) => extensionOf(useContext(ExtensionsContext), def);
