// The host's error messages are specific: show them as they are.
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return 'The call failed without a message.';
}
