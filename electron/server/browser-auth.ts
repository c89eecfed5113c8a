// Browser-mode access rules: the per-launch token in the printed URL is exchanged for an HttpOnly
// SameSite=Strict session cookie. The token stays valid until the console stops (the operator may
// open the URL in a second browser), so treat the printed URL as a secret. Host and Origin must be
// this console's own loopback address.
import { randomBytes, timingSafeEqual } from 'node:crypto';

/** Cookies are not scoped by port: each console names its cookie after its port so two consoles on one machine do not sign each other out. */
export function sessionCookieName(port: number): string {
  return `leasewatch_session_${port}`;
}

export interface BrowserAuthOptions {
  token: string;
  /** The port the console listens on (names the session cookie). */
  port: number;
  /** host:port values the console answers to (e.g. 127.0.0.1:4780, localhost:4780). */
  allowedHosts: readonly string[];
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    cookies.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return cookies;
}

export class BrowserAuth {
  private readonly session = randomBytes(32).toString('base64url');

  constructor(private readonly options: BrowserAuthOptions) {}

  /** Host header must name this console exactly: stops DNS-rebinding pages from reaching it. */
  hostAllowed(host: string | undefined): boolean {
    return host !== undefined && this.options.allowedHosts.includes(host.toLowerCase());
  }

  /** A WebSocket upgrade must come from a page this console served. */
  originAllowed(origin: string | undefined): boolean {
    if (origin === undefined) return false;
    return this.options.allowedHosts.some((host) => origin === `http://${host}`);
  }

  tokenMatches(candidate: string | null): boolean {
    return candidate !== null && safeEqual(candidate, this.options.token);
  }

  hasSession(cookieHeader: string | undefined): boolean {
    const value = parseCookies(cookieHeader).get(sessionCookieName(this.options.port));
    return value !== undefined && safeEqual(value, this.session);
  }

  sessionCookie(): string {
    return `${sessionCookieName(this.options.port)}=${this.session}; HttpOnly; SameSite=Strict; Path=/`;
  }
}
