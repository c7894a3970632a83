import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

export interface Envelope {
  statusCode: number;
  message: string;
  data?: unknown;
  total?: number;
  errors?: { field: string; message: string }[];
}

/** Every API answer is the JSON envelope, and its HTTP status is its statusCode. */
export function expectEnvelope(res: LightMyRequestResponse, status?: number): Envelope {
  expect(res.headers['content-type'], res.body).toMatch(/^application\/json/);
  const body = res.json() as { statusCode: unknown; message: unknown };
  expect(body.statusCode, res.body).toBe(res.statusCode);
  expect(typeof body.message).toBe('string');
  if (status !== undefined) expect(res.statusCode, res.body).toBe(status);
  return body as Envelope;
}

/** A success with exactly this message and no field errors; returns the parsed body. */
export function expectOk(res: LightMyRequestResponse, message: string) {
  const body = res.json();
  expect({
    status: res.statusCode,
    statusCode: body.statusCode,
    message: body.message,
    errors: body.errors,
  }).toEqual({ status: 200, statusCode: 200, message, errors: undefined });
  expectEnvelope(res);
  return body;
}

/** A refusal with this status and exactly this message; returns the parsed body. */
export function expectError(res: LightMyRequestResponse, status: number, message: string) {
  const body = res.json();
  expect({ status: res.statusCode, statusCode: body.statusCode, message: body.message }).toEqual({
    status,
    statusCode: status,
    message,
  });
  expectEnvelope(res);
  return body;
}
