import { describe, expect, it } from 'vitest';
import {
  LiveClient,
  PING_MESSAGE,
  companyMessage,
  liveUrl,
  parseLiveMessage,
  reconnectDelay,
  type LiveMessage,
  type LiveSocket,
  type Timers,
} from '../../../web/src/features/live/lib/live-client';

class FakeSocket implements LiveSocket {
  readyState = 0;
  sent: string[] = [];
  closed = false;
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.closed = true;
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(data: unknown) {
    this.onmessage?.({ data });
  }
  drop() {
    this.readyState = 3;
    this.onclose?.({});
  }
}

/** Manual timers: `advance(ms)` runs what is due. */
function fakeTimers() {
  let now = 0;
  let nextId = 1;
  const tasks = new Map<number, { at: number; fn: () => void; every?: number }>();
  const timers: Timers = {
    setTimeout: (fn, ms) => {
      const id = nextId++;
      tasks.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimeout: (h) => void tasks.delete(h as number),
    setInterval: (fn, ms) => {
      const id = nextId++;
      tasks.set(id, { at: now + ms, fn, every: ms });
      return id;
    },
    clearInterval: (h) => void tasks.delete(h as number),
  };
  return {
    timers,
    pending: () => [...tasks.values()].map((t) => t.at - now),
    advance(ms: number) {
      const end = now + ms;
      for (;;) {
        const due = [...tasks.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        const [id, task] = due;
        now = task.at;
        if (task.every) task.at += task.every;
        else tasks.delete(id);
        task.fn();
      }
      now = end;
    },
  };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

function setup(tokens: Array<string | undefined> = ['t1', 't2', 't3', 't4']) {
  const clock = fakeTimers();
  const sockets: FakeSocket[] = [];
  const messages: LiveMessage[] = [];
  const opens: boolean[] = [];
  let tokenCalls = 0;
  const client = new LiveClient({
    url: 'ws://host/ws',
    getToken: async () => tokens[Math.min(tokenCalls++, tokens.length - 1)],
    createSocket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    onMessage: (m) => messages.push(m),
    onOpen: ({ reconnected }) => opens.push(reconnected),
    timers: clock.timers,
    random: () => 1,
  });
  return { client, clock, sockets, messages, opens, tokenCalls: () => tokenCalls };
}

describe('live channel helpers', () => {
  it('builds the URL with the token and the company (or ALL)', () => {
    expect(liveUrl('ws://h/ws', 'a.b.c', 'c1')).toBe('ws://h/ws?token=a.b.c&company_id=c1');
    expect(liveUrl('wss://h/prod?x=1', 'tok', 'ALL')).toBe('wss://h/prod?x=1&token=tok&company_id=ALL');
  });

  it('parses JSON {event, payload} messages and ignores anything else', () => {
    expect(parseLiveMessage('{"event":"receipt","payload":{"receipt_id":"r1"}}')).toEqual({
      event: 'receipt',
      payload: { receipt_id: 'r1' },
    });
    expect(parseLiveMessage('{"event":"pong"}')).toEqual({ event: 'pong', payload: undefined });
    expect(parseLiveMessage('not json')).toBeNull();
    expect(parseLiveMessage('{"payload":1}')).toBeNull();
    expect(parseLiveMessage(42)).toBeNull();
  });

  it('backs off exponentially with jitter, capped at 30 s', () => {
    expect(reconnectDelay(0, () => 1)).toBe(1000);
    expect(reconnectDelay(0, () => 0)).toBe(500);
    expect(reconnectDelay(3, () => 1)).toBe(8000);
    expect(reconnectDelay(10, () => 1)).toBe(30_000);
    expect(reconnectDelay(10, () => 0)).toBe(15_000);
  });
});

describe('LiveClient', () => {
  it('connects with a token and the active company, and pings every 300000 ms', async () => {
    const t = setup();
    t.client.start('c1');
    await flush();
    expect(t.sockets).toHaveLength(1);
    expect(t.sockets[0]!.url).toBe('ws://host/ws?token=t1&company_id=c1');
    t.sockets[0]!.open();
    expect(t.opens).toEqual([false]);
    t.clock.advance(299_999);
    expect(t.sockets[0]!.sent).toEqual([]);
    t.clock.advance(1);
    expect(t.sockets[0]!.sent).toEqual([PING_MESSAGE]);
    t.clock.advance(300_000);
    expect(t.sockets[0]!.sent).toEqual([PING_MESSAGE, PING_MESSAGE]);
    expect(JSON.parse(PING_MESSAGE)).toEqual({ event: 'ping' });
  });

  it('passes events on', async () => {
    const t = setup();
    t.client.start('ALL');
    await flush();
    t.sockets[0]!.open();
    t.sockets[0]!.receive('{"event":"receipt-delete","payload":{"receipt_id":"r9"}}');
    t.sockets[0]!.receive('garbage');
    expect(t.messages).toEqual([{ event: 'receipt-delete', payload: { receipt_id: 'r9' } }]);
  });

  it('sends a company event when the active company changes, once per change', async () => {
    const t = setup();
    t.client.start('c1');
    await flush();
    t.sockets[0]!.open();
    t.client.setCompany('c2');
    t.client.setCompany('c2');
    t.client.start('ALL');
    expect(t.sockets[0]!.sent).toEqual([companyMessage('c2'), companyMessage('ALL')]);
    expect(JSON.parse(companyMessage('c2'))).toEqual({ event: 'company', payload: { company_id: 'c2' } });
    expect(t.sockets).toHaveLength(1);
  });

  it('asks again for ALL when the companies changed (a company created or joined since)', async () => {
    const t = setup();
    t.client.start('ALL');
    await flush();
    t.sockets[0]!.open();
    t.client.setCompany('ALL');
    expect(t.sockets[0]!.sent).toEqual([]);
    t.client.refollow();
    expect(t.sockets[0]!.sent).toEqual([companyMessage('ALL')]);
    expect(t.sockets).toHaveLength(1);
  });

  it('switches the company on open when it changed while connecting', async () => {
    const t = setup();
    t.client.start('c1');
    await flush();
    t.client.setCompany('c3');
    t.sockets[0]!.open();
    expect(t.sockets[0]!.sent).toEqual([companyMessage('c3')]);
  });

  it('reconnects with backoff and a fresh token after a drop, following the current company', async () => {
    const t = setup();
    t.client.start('c1');
    await flush();
    t.sockets[0]!.open();
    t.sockets[0]!.drop();
    expect(t.clock.pending()).toEqual([1000]);
    t.client.setCompany('c2');
    t.clock.advance(1000);
    await flush();
    expect(t.sockets).toHaveLength(2);
    expect(t.sockets[1]!.url).toBe('ws://host/ws?token=t2&company_id=c2');
    // refused again before opening: the next wait doubles
    t.sockets[1]!.drop();
    expect(t.clock.pending()).toEqual([2000]);
    t.clock.advance(2000);
    await flush();
    t.sockets[2]!.open();
    expect(t.opens).toEqual([false, true]);
    // after a successful open the backoff starts again from 1 s
    t.sockets[2]!.drop();
    expect(t.clock.pending()).toEqual([1000]);
  });

  it('waits and retries while no token can be had', async () => {
    const t = setup([undefined, 'late']);
    t.client.start('c1');
    await flush();
    expect(t.sockets).toHaveLength(0);
    t.clock.advance(1000);
    await flush();
    expect(t.sockets).toHaveLength(1);
    expect(t.sockets[0]!.url).toContain('token=late');
  });

  it('stop closes the socket, cancels the timers and ignores late callbacks', async () => {
    const t = setup();
    t.client.start('c1');
    await flush();
    const s = t.sockets[0]!;
    s.open();
    t.client.stop();
    expect(s.closed).toBe(true);
    expect(t.clock.pending()).toEqual([]);
    s.receive('{"event":"receipt","payload":{}}');
    expect(t.messages).toEqual([]);
    t.clock.advance(60_000);
    await flush();
    expect(t.sockets).toHaveLength(1);
  });

  it('stop while the token is being fetched opens nothing', async () => {
    const t = setup();
    t.client.start('c1');
    t.client.stop();
    await flush();
    expect(t.sockets).toHaveLength(0);
  });
});
