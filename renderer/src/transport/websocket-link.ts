// Browser transport: the contract over one WebSocket to the console server, re-opened when it drops.
import type { ClientLink, ClientOptions } from '@orpc/client';
import { RPCLink } from '@orpc/client/websocket';

export type ConnectionState = 'connecting' | 'open' | 'closed';

export class ReconnectingWebSocketLink implements ClientLink<Record<never, never>> {
  private socket: WebSocket | null = null;
  private link: RPCLink<Record<never, never>> | null = null;
  private disposed = false;

  constructor(
    private readonly url: string,
    private readonly onState: (state: ConnectionState) => void = () => undefined,
    private readonly retryMs = 1000,
  ) {}

  private current(): RPCLink<Record<never, never>> {
    if (this.link && this.socket && this.socket.readyState <= WebSocket.OPEN) return this.link;
    const socket = new WebSocket(this.url);
    this.onState('connecting');
    socket.addEventListener('open', () => this.onState('open'));
    socket.addEventListener('close', () => {
      if (this.socket !== socket) return;
      this.onState('closed');
      this.link = null;
      this.socket = null;
      if (!this.disposed) setTimeout(() => { if (!this.disposed && !this.socket) this.current(); }, this.retryMs);
    });
    this.socket = socket;
    this.link = new RPCLink({ websocket: socket });
    return this.link;
  }

  call(path: readonly string[], input: unknown, options: ClientOptions<Record<never, never>>): Promise<unknown> {
    return this.current().call(path, input, options);
  }

  dispose(): void {
    this.disposed = true;
    this.socket?.close();
  }
}
