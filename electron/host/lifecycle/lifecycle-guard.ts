// Lifecycle guards (spec §5): per lease, lifecycle operations run one at a time; a lease that is
// closing or whose cleanup is unconfirmed accepts no new work; closing aborts and awaits work in flight.
// A release (pause) also closes the lease while it runs, is refused while the lease is destroyed or
// its cleanup is unconfirmed, and gives way to a destroy.
import type { GuardState } from '../../../shared/domain';
import { HostError } from '../host-error';

export const guardMessages = {
  closingOrUnconfirmed: 'CreateOS lease is closing or requires cleanup.',
  cleanupInProgress: 'CreateOS lease cleanup is already in progress.',
  resumeBlocked: 'CreateOS lease cleanup must finish before resume.',
  reuseBlocked: 'CreateOS process cleanup is unconfirmed; destroy this lease before reusing it.',
  shuttingDown: 'The console is shutting down.',
  pauseWhileDestroying: 'CreateOS lease is being destroyed; it cannot be paused.',
  pauseUnconfirmed: 'CreateOS process cleanup is unconfirmed: the process trees of this lease are not proven stopped, so it cannot be paused. Destroy it instead.',
  destroying: 'The lease is being destroyed.',
} as const;

/** Why a lease is closing: a destroy, or a release (pause). */
type Closing = 'destroy' | 'release';

interface Release {
  controller: AbortController;
  done: Promise<unknown>;
}

interface LeaseGuard {
  chain: Promise<unknown>;
  closing: Closing | null;
  /** The release under way, so that a destroy can abort and await it. */
  release: Release | null;
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
      guard = { chain: Promise.resolve(), closing: null, release: null, unconfirmed: false, active: new Set(), activeDone: new Set() };
      this.guards.set(leaseId, guard);
    }
    return guard;
  }

  state(leaseId: string): GuardState {
    const guard = this.guards.get(leaseId);
    if (!guard) return 'idle';
    if (guard.closing !== null) return 'closing';
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
    if (guard.closing !== null || guard.unconfirmed) return Promise.reject(new HostError('CONFLICT', guardMessages.closingOrUnconfirmed));
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

  /**
   * Refuses resume while the lease is being destroyed or its cleanup is unconfirmed. A resume asked
   * for during a pause waits its turn (serialize) and checks again then.
   */
  assertResumable(leaseId: string): void {
    const guard = this.guards.get(leaseId);
    if (guard && (guard.closing === 'destroy' || guard.unconfirmed)) throw new HostError('CONFLICT', guardMessages.resumeBlocked);
  }

  private releaseRefusal(leaseId: string): HostError | null {
    if (this.shuttingDown) return new HostError('UNAVAILABLE', guardMessages.shuttingDown);
    const guard = this.guards.get(leaseId);
    if (guard?.closing === 'destroy') return new HostError('CONFLICT', guardMessages.pauseWhileDestroying);
    if (guard?.unconfirmed) return new HostError('CONFLICT', guardMessages.pauseUnconfirmed);
    return null;
  }

  /**
   * Releases a lease (pause, spec §5): refused while it is being destroyed or its cleanup is
   * unconfirmed, checked again when its turn comes after earlier lifecycle operations. While
   * `operation` runs the lease is closing, so no new work starts. Work already running is left
   * alone: a pause freezes it with the sandbox. A destroy started meanwhile aborts `operation`
   * (through its signal) and awaits it.
   */
  release<T>(leaseId: string, operation: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const refusal = this.releaseRefusal(leaseId);
    if (refusal) return Promise.reject(refusal);
    return this.serialize(leaseId, async () => {
      const refused = this.releaseRefusal(leaseId);
      if (refused) throw refused;
      const guard = this.guard(leaseId);
      const controller = new AbortController();
      guard.closing = 'release';
      this.onChange(leaseId);
      const done = Promise.resolve().then(() => operation(controller.signal));
      const release: Release = { controller, done };
      guard.release = release;
      try {
        return await done;
      } finally {
        if (guard.release === release) guard.release = null;
        if (guard.closing === 'release') {
          guard.closing = null;
          this.onChange(leaseId);
        }
      }
    });
  }

  /**
   * Closes a lease: marks it closing, aborts and awaits its work in flight (and a release under
   * way), then runs `cleanup`. A successful destroy clears the unconfirmed mark; `closing` is always
   * removed at the end.
   */
  async close<T>(leaseId: string, cleanup: () => Promise<T>, options: { clearsUnconfirmed: boolean }): Promise<T> {
    const guard = this.guard(leaseId);
    if (guard.closing === 'destroy') throw new HostError('CONFLICT', guardMessages.cleanupInProgress);
    const release = guard.release;
    guard.closing = 'destroy';
    this.onChange(leaseId);
    try {
      const reason = new HostError('CONFLICT', guardMessages.destroying);
      release?.controller.abort(reason);
      for (const controller of guard.active) controller.abort(reason);
      await Promise.allSettled([...guard.activeDone, ...(release ? [release.done] : [])]);
      const result = await cleanup();
      if (options.clearsUnconfirmed) guard.unconfirmed = false;
      return result;
    } finally {
      guard.closing = null;
      this.onChange(leaseId);
    }
  }

  shutdown(): void {
    this.shuttingDown = true;
    const reason = new HostError('UNAVAILABLE', guardMessages.shuttingDown);
    for (const guard of this.guards.values()) {
      guard.release?.controller.abort(reason);
      for (const controller of guard.active) controller.abort(reason);
    }
  }
}
