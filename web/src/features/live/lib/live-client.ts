import { WS_PING_MS } from '../../../../../shared/constants';

/** The live events the server pushes (product.md section 4), plus the channel's own answers. */
export const LIVE_EVENTS = ['receipt', 'receipt-update', 'receipt-delete', 'company', 'company-delete', 'membership'] as const;
export type LiveEventName = (typeof LIVE_EVENTS)[number];

export interface LiveMessage {
  event: string;
  payload: unknown;
}

/** The part of the browser WebSocket the client uses (a fake in the unit tests). */
export interface LiveSocket {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}

const OPEN = 1;

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

const globalTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
  setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
  clearInterval: (h) => globalThis.clearInterval(h as ReturnType<typeof setInterval>),
};

/**
 * `checking`: the connection is open but was not heard from for long (the computer slept, the network dropped): it
 * counts as broken until the server answers the ping sent at once.
 */
export type LiveStatus = 'idle' | 'connecting' | 'open' | 'checking' | 'waiting';

export interface LiveClientOptions {
  /** config.wsUrl */
  url: string;
  /** A fresh access token for every (re)connection; undefined means signed out (no connection). */
  getToken(): Promise<string | undefined>;
  createSocket(url: string): LiveSocket;
  onMessage(message: LiveMessage): void;
  /** Called on every successful open; `reconnected` is true after a dropped connection (events may have been missed). */
  onOpen?(info: { reconnected: boolean }): void;
  onStatus?(status: LiveStatus): void;
  timers?: Timers;
  /** The clock of the timers (when the server was last heard from). */
  now?: () => number;
  pingMs?: number;
  /** How long the answer to a ping may take before the connection counts as dead. */
  answerTimeoutMs?: number;
  /** How long a new socket may take to open before it is given up. */
  connectTimeoutMs?: number;
  /** 0..1, for the backoff jitter. */
  random?: () => number;
}

export const RECONNECT_BASE_MS = 1000;
export const RECONNECT_MAX_MS = 30_000;
/** The server answers a ping with {event:'pong'} (lambdas/ws/default.ts); no answer within 10 s: the connection is dead. */
export const ANSWER_TIMEOUT_MS = 10_000;
/**
 * A socket not open within 10 s (a network that swallows the handshake: neither open nor error comes, and the
 * browser's own TCP timeout takes minutes) is closed and made again with the reconnect's backoff.
 */
export const CONNECT_TIMEOUT_MS = 10_000;
/**
 * Not heard from for longer than the ping interval and this (a hidden tab's timers may run a minute late): when the
 * window comes back the connection is in doubt until the server answers.
 */
export const QUIET_GRACE_MS = 120_000;

/** Exponential backoff with jitter: 1 s, 2 s, 4 s … capped at 30 s, each between 50 % and 100 % of the step. */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const step = Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** Math.max(0, attempt));
  return Math.round(step / 2 + (step / 2) * random());
}

/** `<wsUrl>?token=<access token>&company_id=<id or ALL>` (a query the URL already has is kept). */
export function liveUrl(base: string, token: string, companyId: string): string {
  const [path, query = ''] = base.split('?', 2) as [string, string?];
  const params = new URLSearchParams(query);
  params.set('token', token);
  params.set('company_id', companyId);
  return `${path}?${params.toString()}`;
}

/** A message from the server: JSON `{ event, payload }`; anything else is ignored. */
export function parseLiveMessage(data: unknown): LiveMessage | null {
  if (typeof data !== 'string') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { event, payload } = parsed as { event?: unknown; payload?: unknown };
  if (typeof event !== 'string' || !event) return null;
  return { event, payload };
}

export function companyMessage(companyId: string): string {
  return JSON.stringify({ event: 'company', payload: { company_id: companyId } });
}
export const PING_MESSAGE = JSON.stringify({ event: 'ping' });
/** The access token again, after it was refreshed: the server's subscriptions get events only until it expires. */
export function tokenMessage(token: string): string {
  return JSON.stringify({ event: 'token', payload: { token } });
}

/**
 * One WebSocket to the live channel. Connects with a fresh token and the followed company (an id, or
 * ALL), pings every 300000 ms, switches the company with a `company` event, and reconnects with
 * exponential backoff after a drop. A socket not open within 10 s is given up and made again the same way. A ping
 * not answered (by anything) within 10 s means a dead connection (a laptop that slept, a network that dropped without
 * a word): it is closed and made again. `wake()` (the window is shown again, the browser is back online) pings at
 * once, or connects at once when waiting to reconnect.
 */
export class LiveClient {
  private readonly opts: LiveClientOptions;
  private readonly timers: Timers;
  private socket: LiveSocket | null = null;
  private companyId: string | null = null;
  /** The company the open socket follows (from the URL or the last company event). */
  private socketCompany: string | null = null;
  private running = false;
  private attempt = 0;
  private everOpened = false;
  private reconnectTimer: unknown = null;
  private pingTimer: unknown = null;
  /** The access token the open socket was last given (in its URL, then by `token` messages). */
  private sentToken: string | null = null;
  /** Set while a ping waits for its answer. */
  private answerTimer: unknown = null;
  /** Set while a new socket waits to open. */
  private connectTimer: unknown = null;
  private lastHeard = 0;
  /** Bumped on every connect/stop so late callbacks of an old socket do nothing. */
  private generation = 0;
  private status: LiveStatus = 'idle';

  constructor(opts: LiveClientOptions) {
    this.opts = opts;
    this.timers = opts.timers ?? globalTimers;
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  getStatus(): LiveStatus {
    return this.status;
  }

  /** Start (or keep) the connection, following `companyId` (an id or ALL). */
  start(companyId: string): void {
    this.companyId = companyId;
    if (this.running) {
      this.switchCompany();
      return;
    }
    this.running = true;
    this.attempt = 0;
    void this.connect();
  }

  /** Follow another company on the open connection (or on the next one). */
  setCompany(companyId: string): void {
    this.companyId = companyId;
    if (this.running) this.switchCompany();
  }

  /**
   * Ask again for what the followed company means: following ALL, the server subscribes to the companies the user
   * belongs to when asked, so a company created or joined since then needs the question again.
   */
  refollow(): void {
    this.socketCompany = null;
    if (this.running) this.switchCompany();
  }

  /**
   * The window is shown again or the browser is back online: an open connection is pinged at once (and counts as
   * broken meanwhile if it was not heard from for long); one waiting to reconnect connects now.
   */
  wake(): void {
    if (!this.running) return;
    if (this.status === 'waiting') {
      if (this.reconnectTimer !== null) this.timers.clearTimeout(this.reconnectTimer);
      this.reconnectTimer = null;
      void this.connect();
      return;
    }
    const socket = this.socket;
    if (!socket || socket.readyState !== OPEN || (this.status !== 'open' && this.status !== 'checking')) return;
    const pingMs = this.opts.pingMs ?? WS_PING_MS;
    if (this.now() - this.lastHeard > pingMs + QUIET_GRACE_MS) this.setStatus('checking');
    this.ping(socket);
  }

  stop(): void {
    this.running = false;
    this.generation += 1;
    this.clearTimers();
    const socket = this.socket;
    this.socket = null;
    this.socketCompany = null;
    if (socket) {
      socket.onopen = socket.onmessage = socket.onclose = socket.onerror = null;
      try {
        socket.close(1000, 'bye');
      } catch {
        // already closed
      }
    }
    this.setStatus('idle');
  }

  private setStatus(status: LiveStatus): void {
    if (status === this.status) return;
    this.status = status;
    this.opts.onStatus?.(status);
  }

  private switchCompany(): void {
    const socket = this.socket;
    if (!socket || socket.readyState !== OPEN || !this.companyId || this.companyId === this.socketCompany) return;
    socket.send(companyMessage(this.companyId));
    this.socketCompany = this.companyId;
  }

  private clearTimers(): void {
    if (this.reconnectTimer !== null) this.timers.clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.clearSocketTimers();
  }

  private clearSocketTimers(): void {
    if (this.pingTimer !== null) this.timers.clearInterval(this.pingTimer);
    if (this.answerTimer !== null) this.timers.clearTimeout(this.answerTimer);
    if (this.connectTimer !== null) this.timers.clearTimeout(this.connectTimer);
    this.pingTimer = null;
    this.answerTimer = null;
    this.connectTimer = null;
  }

  /** Sends a ping and expects an answer (any message) within the answer timeout. */
  private ping(socket: LiveSocket): void {
    if (this.socket !== socket || socket.readyState !== OPEN) return;
    try {
      socket.send(PING_MESSAGE);
    } catch {
      this.abandon(socket);
      return;
    }
    void this.sendFreshToken(socket);
    if (this.answerTimer !== null) return;
    this.answerTimer = this.timers.setTimeout(() => {
      this.answerTimer = null;
      this.abandon(socket);
    }, this.opts.answerTimeoutMs ?? ANSWER_TIMEOUT_MS);
  }

  /**
   * With each ping, the access token as it is now (refreshed when it expired): a new one goes to the server, which
   * then keeps the subscriptions until it expires (lambdas/ws/default.ts). A user signed out everywhere gets none, and
   * the open socket stops receiving events within the old token's hour.
   */
  private async sendFreshToken(socket: LiveSocket): Promise<void> {
    let token: string | undefined;
    try {
      token = await this.opts.getToken();
    } catch {
      return;
    }
    if (!token || token === this.sentToken || this.socket !== socket || socket.readyState !== OPEN) return;
    try {
      socket.send(tokenMessage(token));
      this.sentToken = token;
    } catch {
      // the ping's answer tells whether the socket is alive
    }
  }

  /**
   * A connection that does not answer, or a socket that does not open: closed without waiting for its close (which
   * may never come), and made again. Its late callbacks do nothing (removed, and the generation moved on).
   */
  private abandon(socket: LiveSocket, reason = 'no answer'): void {
    if (this.socket !== socket) return;
    this.generation += 1;
    socket.onopen = socket.onmessage = socket.onclose = socket.onerror = null;
    try {
      socket.close(4000, reason);
    } catch {
      // already closed
    }
    this.socket = null;
    this.socketCompany = null;
    this.clearSocketTimers();
    this.scheduleReconnect();
  }

  private async connect(): Promise<void> {
    const generation = ++this.generation;
    this.setStatus('connecting');
    let token: string | undefined;
    try {
      token = await this.opts.getToken();
    } catch {
      token = undefined;
    }
    if (generation !== this.generation || !this.running) return;
    const companyId = this.companyId;
    if (!token || !companyId) {
      this.scheduleReconnect();
      return;
    }
    let socket: LiveSocket;
    try {
      socket = this.opts.createSocket(liveUrl(this.opts.url, token, companyId));
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    this.socketCompany = companyId;
    this.sentToken = token;
    // A handshake that never ends (no open, no error, no close) must not keep the client waiting for the browser's
    // own timeout: given up, and the reconnect's backoff follows.
    if (this.connectTimer !== null) this.timers.clearTimeout(this.connectTimer);
    this.connectTimer = this.timers.setTimeout(() => {
      this.connectTimer = null;
      if (generation === this.generation) this.abandon(socket, 'not opened');
    }, this.opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS);
    socket.onopen = () => {
      if (generation !== this.generation) return;
      if (this.connectTimer !== null) this.timers.clearTimeout(this.connectTimer);
      this.connectTimer = null;
      this.attempt = 0;
      this.setStatus('open');
      const reconnected = this.everOpened;
      this.everOpened = true;
      this.lastHeard = this.now();
      this.pingTimer = this.timers.setInterval(() => this.ping(socket), this.opts.pingMs ?? WS_PING_MS);
      // the company may have changed while connecting
      this.switchCompany();
      this.opts.onOpen?.({ reconnected });
    };
    socket.onmessage = (ev) => {
      if (generation !== this.generation) return;
      // any message answers the ping: the connection is alive
      this.lastHeard = this.now();
      if (this.answerTimer !== null) this.timers.clearTimeout(this.answerTimer);
      this.answerTimer = null;
      if (this.status === 'checking') this.setStatus('open');
      const message = parseLiveMessage(ev.data);
      // The server had ended the subscriptions before a fresher token came (events were missed, and the
      // subscriptions may be gone): a new connection subscribes again and the screens read again what they show.
      if (message?.event === 'token' && (message.payload as { lapsed?: unknown } | undefined)?.lapsed === true) {
        this.abandon(socket, 'subscriptions lapsed');
        return;
      }
      if (message) this.opts.onMessage(message);
    };
    socket.onerror = () => {
      // onclose follows and schedules the reconnect
    };
    socket.onclose = () => {
      if (generation !== this.generation) return;
      this.socket = null;
      this.socketCompany = null;
      this.clearSocketTimers();
      if (this.running) this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    if (!this.running) return;
    this.setStatus('waiting');
    const delay = reconnectDelay(this.attempt, this.opts.random);
    this.attempt += 1;
    if (this.reconnectTimer !== null) this.timers.clearTimeout(this.reconnectTimer);
    this.reconnectTimer = this.timers.setTimeout(() => {
      this.reconnectTimer = null;
      void this.connect();
    }, delay);
  }
}

/** The document and window events that mean the connection may have broken unseen (a subset of the DOM's). */
export interface WakeTargets {
  document: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> & { readonly visibilityState: string };
  window: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;
}

/** Calls `wake` when the page is shown again (the tab comes back, the laptop wakes) and when the browser is back online. */
export function onWake(targets: WakeTargets, wake: () => void): () => void {
  const visibility = () => {
    if (targets.document.visibilityState === 'visible') wake();
  };
  targets.document.addEventListener('visibilitychange', visibility);
  targets.window.addEventListener('online', wake);
  return () => {
    targets.document.removeEventListener('visibilitychange', visibility);
    targets.window.removeEventListener('online', wake);
  };
}
