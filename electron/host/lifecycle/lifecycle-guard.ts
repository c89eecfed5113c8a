// Lifecycle guards (spec §5): per lease, lifecycle operations run one at a time; a lease that is
// closing or whose cleanup is unconfirmed accepts no new work; closing aborts and awaits work in flight.
import type { GuardState } from '../../../shared/domain';
import { HostError } from '../host-error';

export const guardMessages = {
  closingOrUnconfirmed: 'CreateOS lease is closing or requires cleanup.',
  cleanupInProgress: 'CreateOS lease cleanup is already in progress.',
  resumeBlocked: 'CreateOS lease cleanup must finish before resume.',
  reuseBlocked: 'CreateOS process cleanup is unconfirmed; destroy this lease before reusing it.',
  shuttingDown: 'The console is shutting down.',
} as const;

interface LeaseGuard {
  chain: Promise<unknown>;
  closing: boolean;
  unconfirmed: boolean;
  active: Set<AbortController>;
  activeDone: Set<Promise<unknown>>;
}

export class LifecycleGuard {
  private readonly guards = new Map<string, LeaseGuard>();
  private shuttingDown = false;

  constructor(private readonly onChange: (leaseId: string) => void = () => undefined) {}

  private guard(leaseId: string): LeaseGuard {
    let guard = this.guards.get(leaseId);
    if (!guard) {
      guard = { chain: Promise.resolve(), closing: false, unconfirmed: false, active: new Set(), activeDone: new Set() };
      this.guards.set(leaseId, guard);
    }
    return guard;
  }

  state(leaseId: string): GuardState {
    const guard = this.guards.get(leaseId);
    if (!guard) return 'idle';
    if (guard.closing) return 'closing';
    if (guard.unconfirmed) return 'unconfirmedCleanup';
    return guard.active.size > 0 ? 'busy' : 'idle';
  }

  /** Runs a lifecycle operation after every earlier one on the same lease has settled. */
  serialize<T>(leaseId: string, operation: () => Promise<T>): Promise<T> {
    const guard = this.guard(leaseId);
    const result = guard.chain.then(operation, operation);
    guard.chain = result.catch(() => undefined);
    return result;
  }

  /** Starts tracked work (a command) on a lease; refused while closing or unconfirmed. */
  track<T>(leaseId: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.shuttingDown) return Promise.reject(new HostError('UNAVAILABLE', guardMessages.shuttingDown));
    const guard = this.guard(leaseId);
    if (guard.closing || guard.unconfirmed) return Promise.reject(new HostError('CONFLICT', guardMessages.closingOrUnconfirmed));
    const controller = new AbortController();
    guard.active.add(controller);
    const done = work(controller.signal).finally(() => {
      guard.active.delete(controller);
      guard.activeDone.delete(done);
      this.onChange(leaseId);
    });
    guard.activeDone.add(done);
    this.onChange(leaseId);
    return done;
  }

  markUnconfirmed(leaseId: string): void {
    this.guard(leaseId).unconfirmed = true;
    this.onChange(leaseId);
  }

  isUnconfirmed(leaseId: string): boolean {
    return this.guards.get(leaseId)?.unconfirmed ?? false;
  }

  /** Refuses resume while the lease is closing or its cleanup is unconfirmed. */
  assertResumable(leaseId: string): void {
    const guard = this.guards.get(leaseId);
    if (guard && (guard.closing || guard.unconfirmed)) throw new HostError('CONFLICT', guardMessages.resumeBlocked);
  }

  /**
   * Closes a lease: marks it closing, aborts and awaits its work in flight, then runs `cleanup`.
   * A successful destroy clears the unconfirmed mark; `closing` is always removed at the end.
   */
  async close<T>(leaseId: string, cleanup: () => Promise<T>, options: { clearsUnconfirmed: boolean }): Promise<T> {
    const guard = this.guard(leaseId);
    if (guard.closing) throw new HostError('CONFLICT', guardMessages.cleanupInProgress);
    guard.closing = true;
    this.onChange(leaseId);
    try {
      for (const controller of guard.active) controller.abort(new HostError('CONFLICT', 'The lease is being destroyed.'));
      await Promise.allSettled([...guard.activeDone]);
      const result = await cleanup();
      if (options.clearsUnconfirmed) guard.unconfirmed = false;
      return result;
    } finally {
      guard.closing = false;
      this.onChange(leaseId);
    }
  }

  shutdown(): void {
    this.shuttingDown = true;
    for (const guard of this.guards.values()) for (const controller of guard.active) controller.abort(new HostError('UNAVAILABLE', guardMessages.shuttingDown));
  }
}
