// The typed confirmation of a bulk destroy: the number of leases, or "destroy N leases".
export function confirmationPhrase(count: number): string {
  return `destroy ${count} ${count === 1 ? 'lease' : 'leases'}`;
}

export function isConfirmed(typed: string, count: number): boolean {
  const value = typed.trim().toLowerCase().replace(/\s+/g, ' ');
  return count > 0 && (value === String(count) || value === confirmationPhrase(count));
}
