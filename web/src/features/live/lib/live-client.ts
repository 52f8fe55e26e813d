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

export type LiveStatus = 'idle' | 'connecting' | 'open' | 'waiting';

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
  pingMs?: number;
  /** 0..1, for the backoff jitter. */
  random?: () => number;
}

export const RECONNECT_BASE_MS = 1000;
export const RECONNECT_MAX_MS = 30_000;

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

/**
 * One WebSocket to the live channel. Connects with a fresh token and the followed company (an id, or
 * ALL), pings every 300000 ms, switches the company with a `company` event, and reconnects with
 * exponential backoff after a drop.
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
  /** Bumped on every connect/stop so late callbacks of an old socket do nothing. */
  private generation = 0;
  private status: LiveStatus = 'idle';

  constructor(opts: LiveClientOptions) {
    this.opts = opts;
    this.timers = opts.timers ?? globalTimers;
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
    if (this.pingTimer !== null) this.timers.clearInterval(this.pingTimer);
    this.reconnectTimer = null;
    this.pingTimer = null;
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
    socket.onopen = () => {
      if (generation !== this.generation) return;
      this.attempt = 0;
      this.setStatus('open');
      const reconnected = this.everOpened;
      this.everOpened = true;
      this.pingTimer = this.timers.setInterval(() => {
        if (this.socket === socket && socket.readyState === OPEN) socket.send(PING_MESSAGE);
      }, this.opts.pingMs ?? WS_PING_MS);
      // the company may have changed while connecting
      this.switchCompany();
      this.opts.onOpen?.({ reconnected });
    };
    socket.onmessage = (ev) => {
      if (generation !== this.generation) return;
      const message = parseLiveMessage(ev.data);
      if (message) this.opts.onMessage(message);
    };
    socket.onerror = () => {
      // onclose follows and schedules the reconnect
    };
    socket.onclose = () => {
      if (generation !== this.generation) return;
      this.socket = null;
      this.socketCompany = null;
      if (this.pingTimer !== null) this.timers.clearInterval(this.pingTimer);
      this.pingTimer = null;
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
