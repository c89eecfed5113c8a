// One CreateOS environment (profile): config, paced transport, typed API and command executor.
import type { Dispatcher } from 'undici';
import { CreateosApi } from './api';
import type { CreateosConfig } from './config';
import { CommandExecutor, type StreamTuning } from './execute';
import { CreateosHttpClient } from './http-client';
import type { RequestPacer } from './pacer';

export interface CreateosClientOptions {
  readonly config: CreateosConfig;
  readonly pacer?: RequestPacer;
  readonly dispatcher?: Dispatcher;
  /**
   * Tuning of execute's output streams. For execute, eviction is always "process output was
   * evicted before it could be read." (§3, §6); only the watcher's attach and resume paths turn
   * eviction into a gap marker, on their own streams.
   */
  readonly stream?: StreamTuning;
  readonly tailChars?: number;
}

export class CreateosClient {
  readonly http: CreateosHttpClient;
  readonly api: CreateosApi;
  readonly executor: CommandExecutor;

  constructor(options: CreateosClientOptions) {
    this.http = new CreateosHttpClient({
      config: options.config,
      ...(options.pacer === undefined ? {} : { pacer: options.pacer }),
      ...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }),
    });
    this.api = new CreateosApi(this.http);
    this.executor = new CommandExecutor({
      api: this.api,
      timeoutMs: options.config.timeoutMs,
      ...(options.stream === undefined ? {} : { stream: options.stream }),
      ...(options.tailChars === undefined ? {} : { tailChars: options.tailChars }),
    });
  }

  /** Requests to this origin waiting for their turn in the shared pacer. */
  get queuedRequests(): number {
    return this.http.pacer.queued;
  }

  dispose(): Promise<void> {
    return this.http.dispose();
  }
}
