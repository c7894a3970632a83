export interface FieldError {
  field: string;
  message: string;
}

/** Every API answer: its HTTP status always equals statusCode (docs/product.md section 2). */
export interface ApiEnvelope<T = unknown> {
  statusCode: number;
  message: string;
  data?: T;
  total?: number;
  errors?: FieldError[];
}

export const DEFAULT_UNEXPECTED_MESSAGE = 'An unexpected error occurred';
