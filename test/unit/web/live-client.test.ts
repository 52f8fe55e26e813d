import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { reloadAfterGap } from '../../../web/src/features/live/components/LiveChannel';
import { createLiveCoverage } from '../../../web/src/features/live/lib/live-status';
import { receiptCache } from '../../../web/src/features/live/use-receipt-cache';
import { queryKeys } from '../../../web/src/lib/query-keys';
import { data, list, receipt } from './receipt-fixture';
import {
  CONNECT_TIMEOUT_MS,
  LiveClient,
  PING_MESSAGE,
  onWake,
  tokenMessage,
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
    now: () => now,
    /** Time passes with no timer running (the computer sleeps); what is due runs at the next advance. */
    sleep(ms: number) {
      now += ms;
    },
    pending: () => [...tasks.values()].map((t) => t.at - now),
    advance(ms: number) {
      const end = now + ms;
      for (;;) {
        const due = [...tasks.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        const [id, task] = due;
        now = Math.max(now, task.at);
        // an interval overdue after a sleep runs once, not once per missed period
        if (task.every) task.at = now + task.every;
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
  const statuses: string[] = [];
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
    onStatus: (s) => statuses.push(s),
    timers: clock.timers,
    now: clock.now,
    random: () => 1,
  });
  return { client, clock, sockets, messages, opens, statuses, tokenCalls: () => tokenCalls };
}

/** A client started for company c1 whose first connection is open. */
async function openChannel() {
  const t = setup();
  t.client.start('c1');
  await flush();
  const s = t.sockets[0]!;
  s.open();
  return { t, s };
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
    t.sockets[0]!.receive('{"event":"pong"}');
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
    const { t, s } = await openChannel();
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

  it('a ping not answered within 10 s means a dead connection: closed, made again with backoff, and the lists reloaded', async () => {
    const { t, s } = await openChannel();
    t.clock.advance(300_000);
    expect(s.sent).toEqual([PING_MESSAGE]);
    t.clock.advance(9_999);
    expect(s.closed).toBe(false);
    expect(t.client.getStatus()).toBe('open');
    t.clock.advance(1);
    // the socket looks open to the browser, but nothing answers: it is given up without waiting for its close
    expect(s.closed).toBe(true);
    expect(t.client.getStatus()).toBe('waiting');
    expect(t.clock.pending()).toEqual([1000]);
    s.receive('{"event":"receipt","payload":{}}');
    expect(t.messages).toEqual([]);
    t.clock.advance(1000);
    await flush();
    expect(t.sockets).toHaveLength(2);
    // (t2 was the ping's look at the token, not sent: the socket was given up before it came)
    expect(t.sockets[1]!.url).toBe('ws://host/ws?token=t3&company_id=c1');
    expect(s.sent).toEqual([PING_MESSAGE]);
    t.sockets[1]!.open();
    expect(t.opens).toEqual([false, true]);
    expect(t.client.getStatus()).toBe('open');
  });

  it('sends the access token again after a ping when it was refreshed; subscriptions the server had ended mean a new connection', async () => {
    const t = setup(['t1', 't1', 't2', 't3']);
    t.client.start('c1');
    await flush();
    const s = t.sockets[0]!;
    s.open();
    // the first ping: the token is the one of the connection, nothing more is sent
    t.clock.advance(300_000);
    await flush();
    expect(s.sent).toEqual([PING_MESSAGE]);
    s.receive('{"event":"pong"}');
    // the second: the token was refreshed meanwhile, so the server gets it
    t.clock.advance(300_000);
    await flush();
    expect(s.sent).toEqual([PING_MESSAGE, PING_MESSAGE, tokenMessage('t2')]);
    expect(JSON.parse(tokenMessage('t2'))).toEqual({ event: 'token', payload: { token: 't2' } });
    s.receive('{"event":"pong"}');
    s.receive('{"event":"token","payload":{"lapsed":false}}');
    expect(s.closed).toBe(false);
    // the server had ended the subscriptions (events were missed): connected again, and the screens read again
    s.receive('{"event":"token","payload":{"lapsed":true}}');
    expect(s.closed).toBe(true);
    expect(t.client.getStatus()).toBe('waiting');
    t.clock.advance(1000);
    await flush();
    expect(t.sockets[1]!.url).toBe('ws://host/ws?token=t3&company_id=c1');
    t.sockets[1]!.open();
    expect(t.opens).toEqual([false, true]);
  });

  it('any message answers a ping', async () => {
    const { t, s } = await openChannel();
    t.clock.advance(300_000);
    t.clock.advance(5_000);
    s.receive('{"event":"receipt-delete","payload":{"receipt_id":"r1"}}');
    t.clock.advance(60_000);
    expect(s.closed).toBe(false);
    expect(t.client.getStatus()).toBe('open');
    expect(t.sockets).toHaveLength(1);
  });

  it('a socket not open within 10 s is given up and made again with backoff; the abandoned one does nothing late', async () => {
    const t = setup();
    t.client.start('c1');
    await flush();
    const s = t.sockets[0]!;
    // the network swallows the handshake: neither open nor error nor close comes
    t.clock.advance(CONNECT_TIMEOUT_MS - 1);
    expect(s.closed).toBe(false);
    expect(t.client.getStatus()).toBe('connecting');
    t.clock.advance(1);
    expect(s.closed).toBe(true);
    expect(t.client.getStatus()).toBe('waiting');
    expect(t.clock.pending()).toEqual([1000]);
    t.clock.advance(1000);
    await flush();
    expect(t.sockets).toHaveLength(2);
    expect(t.sockets[1]!.url).toBe('ws://host/ws?token=t2&company_id=c1');
    // the abandoned socket opens, talks and closes late: nothing of it reaches the client or the new connection
    s.open();
    s.receive('{"event":"receipt","payload":{}}');
    s.drop();
    expect(t.opens).toEqual([]);
    expect(t.messages).toEqual([]);
    expect(t.client.getStatus()).toBe('connecting');
    expect(t.sockets).toHaveLength(2);
    // the second one does not open either: the next wait doubles
    t.clock.advance(CONNECT_TIMEOUT_MS);
    expect(t.sockets[1]!.closed).toBe(true);
    expect(t.clock.pending()).toEqual([2000]);
    t.clock.advance(2000);
    await flush();
    t.sockets[2]!.open();
    expect(t.opens).toEqual([false]);
    expect(t.client.getStatus()).toBe('open');
    // an open socket is not given up by the connect timeout: only the ping interval is left
    expect(t.clock.pending()).toEqual([300_000]);
    t.clock.advance(CONNECT_TIMEOUT_MS);
    expect(t.sockets[2]!.closed).toBe(false);
    expect(t.sockets).toHaveLength(3);
    expect(CONNECT_TIMEOUT_MS).toBe(10_000);
  });

  it('wake pings at once; a connection not heard from for long counts as broken until it answers', async () => {
    const { t, s } = await openChannel();
    t.clock.advance(30_000);
    // the tab comes back after a short while: a ping, the channel still counts as open
    t.client.wake();
    expect(s.sent).toEqual([PING_MESSAGE]);
    expect(t.client.getStatus()).toBe('open');
    s.receive('{"event":"pong"}');
    // the laptop sleeps for 8 hours (no timer runs); on wake the channel is in doubt until the server answers
    t.clock.sleep(8 * 3600_000);
    t.client.wake();
    expect(s.sent).toEqual([PING_MESSAGE, PING_MESSAGE]);
    expect(t.client.getStatus()).toBe('checking');
    s.receive('{"event":"pong"}');
    expect(t.client.getStatus()).toBe('open');
    expect(t.statuses).toEqual(['connecting', 'open', 'checking', 'open']);
    expect(t.sockets).toHaveLength(1);
  });

  it('wake after a sleep that killed the connection: no answer, a new connection 10 s later', async () => {
    const t = setup();
    t.client.start('c1');
    await flush();
    t.sockets[0]!.open();
    t.clock.sleep(8 * 3600_000);
    t.client.wake();
    expect(t.client.getStatus()).toBe('checking');
    // the interval's overdue ping does not add a second wait
    t.clock.advance(10_000);
    expect(t.sockets[0]!.closed).toBe(true);
    expect(t.client.getStatus()).toBe('waiting');
    t.clock.advance(1000);
    await flush();
    t.sockets[1]!.open();
    expect(t.opens).toEqual([false, true]);
  });

  it('wake while waiting to reconnect connects at once', async () => {
    const t = setup();
    t.client.start('c1');
    await flush();
    t.sockets[0]!.drop();
    t.clock.advance(1000);
    await flush();
    t.sockets[1]!.drop();
    t.clock.advance(2000);
    await flush();
    t.sockets[2]!.drop();
    expect(t.clock.pending()).toEqual([4000]);
    // back online: no need to wait 4 s more
    t.client.wake();
    await flush();
    expect(t.sockets).toHaveLength(4);
    // no reconnect left waiting: only the new socket's connect timeout
    expect(t.clock.pending()).toEqual([CONNECT_TIMEOUT_MS]);
    t.sockets[3]!.open();
    expect(t.client.getStatus()).toBe('open');
  });

  it('wake does nothing while connecting or stopped', async () => {
    const t = setup();
    t.client.wake();
    t.client.start('c1');
    await flush();
    t.client.wake();
    await flush();
    expect(t.sockets).toHaveLength(1);
    expect(t.sockets[0]!.sent).toEqual([]);
  });
});

describe('onWake', () => {
  function targets() {
    const doc = Object.assign(new EventTarget(), { visibilityState: 'hidden' });
    const win = new EventTarget();
    return { doc, win };
  }

  it('calls wake when the page is shown again and when the browser is back online, until stopped', () => {
    const { doc, win } = targets();
    let wakes = 0;
    const stop = onWake({ document: doc, window: win }, () => (wakes += 1));
    doc.dispatchEvent(new Event('visibilitychange'));
    expect(wakes).toBe(0);
    doc.visibilityState = 'visible';
    doc.dispatchEvent(new Event('visibilitychange'));
    expect(wakes).toBe(1);
    win.dispatchEvent(new Event('online'));
    expect(wakes).toBe(2);
    win.dispatchEvent(new Event('offline'));
    expect(wakes).toBe(2);
    stop();
    doc.dispatchEvent(new Event('visibilitychange'));
    win.dispatchEvent(new Event('online'));
    expect(wakes).toBe(2);
  });
});

describe('the list after a laptop slept', () => {
  /** A client wired as LiveChannel wires it: its status decides the list's coverage, its opens reload after a gap. */
  function wired() {
    const clock = fakeTimers();
    const sockets: FakeSocket[] = [];
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const review = list('review');
    qc.setQueryData(queryKeys.receiptList(review), data([receipt({ status: 'processing' })]), { updatedAt: clock.now() });
    const invalidate = vi.spyOn(qc, 'invalidateQueries');
    const cache = receiptCache(qc);
    const coverage = createLiveCoverage(clock.now);
    coverage.follow('c1');
    const client = new LiveClient({
      url: 'ws://host/ws',
      getToken: async () => 'tok',
      createSocket: (url) => {
        const s = new FakeSocket(url);
        sockets.push(s);
        return s;
      },
      onMessage: () => undefined,
      onOpen: () => reloadAfterGap(clock.now(), cache),
      onStatus: (status) => coverage.set(status),
      timers: clock.timers,
      now: clock.now,
      random: () => 1,
    });
    const documentReloads = () => invalidate.mock.calls.filter(([f]) => JSON.stringify(f?.queryKey) === JSON.stringify(queryKeys.receipts)).length;
    return { clock, qc, sockets, client, coverage, documentReloads };
  }

  it('is not covered by the channel from the wake until it answers, and is reloaded once after the new connection', async () => {
    const w = wired();
    w.client.start('c1');
    await flush();
    w.clock.advance(500);
    w.sockets[0]!.open();
    // the list was read before the channel listened: read again once
    expect(w.documentReloads()).toBe(1);
    const readAt = w.clock.now();
    w.qc.setQueryData(queryKeys.receiptList(list('review')), data([receipt({ status: 'review' })]), { updatedAt: readAt });
    expect(w.coverage.covers('c1', readAt)).toBe(true);
    w.clock.sleep(8 * 3600_000);
    w.client.wake();
    // the window's focus reloads the list meanwhile (refetchOnWindowFocus asks the coverage)
    expect(w.coverage.covers('c1', readAt)).toBe(false);
    w.clock.advance(10_000);
    expect(w.coverage.covers('c1', readAt)).toBe(false);
    w.clock.advance(1000);
    await flush();
    w.sockets[1]!.open();
    // events of the night are lost: every cached list and count is read again, once
    expect(w.documentReloads()).toBe(2);
    w.clock.advance(300_000);
    w.sockets[1]!.receive('{"event":"pong"}');
    expect(w.documentReloads()).toBe(2);
  });

  it('reads again what was read before the channel opened, and nothing read since', () => {
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const openedAt = 10_000;
    const companies = [{ company_id: 'c1', name: 'Shop' }];
    qc.setQueryData(queryKeys.companies, companies, { updatedAt: openedAt - 400 });
    qc.setQueryData(queryKeys.masterDataList({ kind: 'suppliers' }), { pages: [] }, { updatedAt: openedAt - 1 });
    qc.setQueryData(queryKeys.receiptList(list('review')), data([receipt({ status: 'review' })]), { updatedAt: openedAt + 1 });
    qc.setQueryData(queryKeys.profile, { email: 'a@example.com' }, { updatedAt: openedAt - 400 });
    reloadAfterGap(openedAt, receiptCache(qc));
    const stale = (key: readonly unknown[]) => qc.getQueryState(key)?.isInvalidated;
    // the companies and a master-data list read while the socket was being made: events of then are lost
    expect(stale(queryKeys.companies)).toBe(true);
    expect(stale(queryKeys.masterDataList({ kind: 'suppliers' }))).toBe(true);
    // a list read after the channel opened is kept current by its events; the profile gets none
    expect(stale(queryKeys.receiptList(list('review')))).toBe(false);
    expect(stale(queryKeys.profile)).toBe(false);
  });
});
