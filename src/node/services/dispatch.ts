/**
 * The one place a contract call becomes a service call, for both transports
 * (Electron IPC in src/main, HTTP in src/node/server): the procedure name is
 * checked, the input is validated against its schema, the handler runs, and
 * whatever it throws becomes an error value. Nothing a caller sends can
 * crash the process.
 */

import { isEmberError } from '../../core/errors.js';
import { isProcedureName, schemas, type Outputs, type ParsedInput, type ProcedureName } from '../../shared/api/contract.js';
import { labelledMessage, schemaMessage } from '../../shared/api/field-messages.js';
import { fail, ok, type ApiErrorKind, type ApiResult } from '../../shared/api/result.js';

/** One function per procedure: the services behind the contract. */
export type Handlers = { readonly [N in ProcedureName]: (input: ParsedInput<N>) => Promise<Outputs[N]> };

/** A service error that is not a library error: not found, conflict. */
export class ServiceError extends Error {
  override name = 'ServiceError';
  constructor(
    readonly kind: Extract<ApiErrorKind, 'not_found' | 'conflict' | 'usage' | 'validation' | 'output'>,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** The error value of anything a handler throws. */
export function errorValue(error: unknown): ApiResult<never> {
  // People read these: a leading `field:` is written as the label of the field's control.
  if (error instanceof ServiceError) return fail(error.kind, labelledMessage(error.message, error.field), error.field);
  if (isEmberError(error)) {
    const raw = (error as { field?: unknown }).field;
    const field = typeof raw === 'string' ? raw : undefined;
    return fail(error.kind, labelledMessage(error.message, field), field);
  }
  const message = error instanceof Error ? error.message : String(error);
  return fail('internal', `internal error (a bug): ${message}`);
}

/** Validates and runs one call. */
export async function dispatch(handlers: Handlers, name: unknown, input: unknown): Promise<ApiResult<unknown>> {
  if (!isProcedureName(name)) return fail('bad_request', `unknown procedure ${JSON.stringify(String(name)).slice(0, 80)}`);
  const parsed = schemas[name].safeParse(input ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.map(String).join('.');
    return fail('bad_request', schemaMessage(field, issue), field === '' ? undefined : field);
  }
  try {
    const handler = handlers[name] as (input: unknown) => Promise<unknown>;
    return ok(await handler(parsed.data));
  } catch (error) {
    return errorValue(error);
  }
}
