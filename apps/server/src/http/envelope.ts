import type { FieldError } from '@wfc/contract';
import type { FastifyReply } from 'fastify';
import type { ZodError } from 'zod';

/** A refusal with the envelope's status and message; `errors` name the fields at fault. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
    /** A refusal that carries what the caller needs to recover (a conflict's current record). */
    readonly answer?: { data: unknown },
  ) {
    super(message);
  }
}

/** A schema's refusal as the envelope's field errors: dotted paths, '_' for the body as a whole. */
export function zodFieldErrors(err: ZodError): FieldError[] {
  return err.issues.map((i) => ({ field: i.path.map(String).join('.') || '_', message: i.message }));
}

export const badRequest = (message: string, errors?: FieldError[]) => new ApiError(400, message, errors);
export const notFound = (message: string) => new ApiError(404, message);
export const conflict = (message: string, errors?: FieldError[]) => new ApiError(409, message, errors);
/** A write refused because what it was based on has changed: `data` is how it stands now. */
export const staleWrite = (message: string, data: unknown) =>
  new ApiError(409, message, undefined, undefined, { data });

export function send<T>(reply: FastifyReply, message: string, data?: T, total?: number) {
  return reply.code(200).send({ statusCode: 200, message, data, ...(total === undefined ? {} : { total }) });
}
