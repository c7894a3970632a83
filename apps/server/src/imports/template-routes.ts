import {
  IMPORT_ENDPOINTS,
  IMPORT_MESSAGES,
  IMPORT_MODULES,
  type ImportModule,
  importPermissions,
  importTemplateQuerySchema,
  RESOURCE_BY_KEY,
} from '@wfc/contract';
import { ApiError } from '../http/envelope.ts';
import { type ApiRoute, anyOf, defineRoute } from '../http/routes.ts';
import { XLSX_TYPE } from '../http/xlsx.ts';
import { buildTemplate, templateFile } from './template.ts';

/** What a module's template needs: the permission to create its records (scores: CREATE_PERFORMANCE). */
const templatePermissions = (module: ImportModule) =>
  importPermissions(module, 'create').filter((p) => p !== 'UPDATE_PERFORMANCE');

/** Every permission that lets its holder fetch some module's template. */
const CREATE_PERMISSIONS = [...new Set(IMPORT_MODULES.flatMap(templatePermissions))];

/** `GetImportTemplate`: a module's template, to be filled in and imported. */
export function importTemplateRoutes(): ApiRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: IMPORT_ENDPOINTS.template,
      summary:
        "A module's import template: the headers, one example row and (XLSX) the values each reference column accepts",
      tag: 'Imports',
      access: anyOf(...CREATE_PERMISSIONS),
      query: importTemplateQuerySchema,
      produces: 'spreadsheet',
      answers: { 403: 'The caller may not create records of the module (scores: CREATE_PERFORMANCE)' },
      async handler(ctx) {
        const { module, format, layout } = ctx.query;
        if (!templatePermissions(module).every((p) => ctx.session.permissions.has(p))) {
          throw new ApiError(403, IMPORT_MESSAGES.moduleForbidden);
        }
        const template = await buildTemplate(ctx.services.db, ctx.session, module, layout);
        const sheetName = module === 'performance' ? 'Scores' : RESOURCE_BY_KEY[module].plural;
        await ctx.reply
          .header('Content-Type', format === 'xlsx' ? XLSX_TYPE : 'text/csv; charset=utf-8')
          .header('Content-Disposition', `attachment; filename="${module}-import-template.${format}"`)
          .header('Cache-Control', 'no-store')
          .send(templateFile(template, format, sheetName));
        return undefined;
      },
    }),
  ];
}
