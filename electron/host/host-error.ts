// Errors the host raises on purpose. Their messages are written for operators and never carry secrets.
export type HostErrorCode = 'NOT_FOUND' | 'CONFLICT' | 'BAD_REQUEST' | 'PROVIDER_ERROR' | 'UNAVAILABLE';

export class HostError extends Error {
  override readonly name = 'HostError';
  constructor(readonly code: HostErrorCode, message: string) {
    super(message);
  }
}
