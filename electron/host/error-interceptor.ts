// One interceptor for every transport: whatever a procedure throws leaves the host as a
// transport error with a specific, secret-free message.
import { toTransportError } from './rpc-errors';

export async function mapErrorsInterceptor<T>({ next }: { next: () => Promise<T> }): Promise<T> {
  try {
    return await next();
  } catch (error) {
    throw toTransportError(error);
  }
}
