import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { allRoutes } from '../../src/app.ts';
import { buildOpenApi } from '../../src/http/openapi.ts';

/*
 * Every answer the API tests receive is checked against the API description: its status must be
 * one the operation declares, and its JSON body must match that answer's schema. The description
 * and the server cannot drift apart without a test failing.
 */

type Doc = ReturnType<typeof buildOpenApi>;
interface Operation {
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }>;
}

let checker: { doc: Doc; ajv: Ajv2020; compiled: Map<string, ValidateFunction> } | undefined;

function load() {
  if (!checker) {
    const doc = buildOpenApi(allRoutes());
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc');
    checker = { doc, ajv, compiled: new Map() };
  }
  return checker;
}

/** `#/components/...` as a reference into the document registered above. */
const intoDoc = (schema: unknown) =>
  JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'));

function operationOf(doc: Doc, method: string, url: string): Operation | undefined {
  const path = url.split('?')[0] ?? url;
  for (const [template, ops] of Object.entries(doc.paths)) {
    const pattern = new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`);
    if (pattern.test(path)) return (ops as Record<string, Operation>)[method.toLowerCase()];
  }
  return undefined;
}

export interface Answer {
  statusCode: number;
  contentType: string;
  body: string;
}

/** Throws when `res` is not an answer the description allows for this call. */
export function checkAgainstDescription(method: string, url: string, res: Answer) {
  if (!url.startsWith('/api/') || url.startsWith('/api/docs')) return;
  const { doc, ajv, compiled } = load();
  const op = operationOf(doc, method, url);
  if (!op) {
    // A call that is no operation (an unknown path) answers 404, or 403 when it came from another site.
    if (res.statusCode !== 404 && res.statusCode !== 403) {
      throw new Error(`${method} ${url}: not described, answered ${res.statusCode}`);
    }
    return;
  }
  const listed = op.responses[String(res.statusCode)];
  if (!listed) throw new Error(`${method} ${url}: ${res.statusCode} is not among its described answers`);
  const responses: Record<string, Operation['responses'][string]> = doc.components.responses;
  const declared = listed.$ref ? responses[listed.$ref.split('/').pop() ?? ''] : listed;
  if (!res.contentType.startsWith('application/json')) return;
  const key = `${method} ${url.split('?')[0]} ${res.statusCode}`;
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(intoDoc(declared?.content?.['application/json']?.schema ?? {}));
    compiled.set(key, validate);
  }
  if (!validate(JSON.parse(res.body))) {
    throw new Error(
      `${method} ${url} ${res.statusCode} does not match its description: ${ajv.errorsText(validate.errors)}\n${res.body.slice(0, 500)}`,
    );
  }
}
