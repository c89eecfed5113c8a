// Maps anything a procedure throws to the error the renderer sees. Validation failures name the
// field; host and provider errors keep their (secret-free) message; anything else is generic.
import { ORPCError, ValidationError } from '@orpc/contract';
import { HostError } from './host-error';

function issuePath(issue: ValidationError['issues'][number]): string[] {
  return (issue.path ?? []).map((p) => (typeof p === 'object' ? String(p.key) : String(p)));
}

function describeIssues(error: ValidationError): string {
  return error.issues.map((issue) => {
    const path = issuePath(issue).join('.');
    return path ? `${path}: ${issue.message}` : issue.message;
  }).join('; ');
}

export function toTransportError(error: unknown): ORPCError<string, unknown> {
  if (error instanceof ORPCError) {
    const cause: unknown = error.cause;
    if (error.code === 'BAD_REQUEST' && cause instanceof ValidationError) {
      return new ORPCError('BAD_REQUEST', { message: `Invalid input: ${describeIssues(cause)}`, data: { issues: cause.issues.map((i) => ({ path: issuePath(i), message: i.message })) } });
    }
    if (cause instanceof ValidationError) {
      return new ORPCError('INTERNAL_SERVER_ERROR', { message: 'The host produced a response that does not match the contract.' });
    }
    return error as ORPCError<string, unknown>;
  }
  if (error instanceof HostError) return new ORPCError(error.code, { message: error.message });
  if (error instanceof Error && error.name.startsWith('Createos')) return new ORPCError('PROVIDER_ERROR', { message: error.message });
  return new ORPCError('INTERNAL_SERVER_ERROR', { message: 'The host failed to handle this request.' });
}
