import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldErrors, FieldValues, Resolver, ResolverOptions } from 'react-hook-form';

/** The contract's schemas typed as what the resolver expects: they parse a request body object. */
interface BodySchema {
  _zod: { output: FieldValues; input: FieldValues };
}

/**
 * Validates with the contract's create or update schema, which describe the request body: the
 * form's values are turned into that body first, so the client applies exactly the server's
 * rules and messages. `extra` adds checks the schema cannot see (a file input).
 */
export function bodyResolver<V extends FieldValues>(
  schema: unknown,
  bodyOf: (values: V) => FieldValues,
  extra: (values: V) => FieldErrors<V> = () => ({}),
): Resolver<V> {
  return async (values, context, options) => {
    const checked = schema
      ? await zodResolver(schema as BodySchema)(
          bodyOf(values),
          context,
          options as unknown as ResolverOptions<FieldValues>,
        )
      : { errors: {} };
    const errors = { ...checked.errors, ...extra(values) } as FieldErrors<V>;
    return Object.keys(errors).length > 0 ? { values: {}, errors } : { values, errors: {} };
  };
}
