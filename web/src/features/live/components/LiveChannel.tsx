import { notifyManager } from '@tanstack/react-query';
import { fetchAuthSession } from 'aws-amplify/auth';
import { useEffect, useRef, useState } from 'react';
import { useAuth } from '../../../app/auth';
import { useConfig } from '../../../app/config-context';
import { useActiveCompany } from '../../companies/api/companies';
import { receiptIdOfPayload, receiptOfPayload } from '../lib/cache-updates';
import type { Receipt } from '../../receipts/api/types';
import { processedAnnouncement } from '../lib/announce';
import { liveBus } from '../lib/live-bus';
import { liveStatus } from '../lib/live-status';
import { LiveClient, onWake, type LiveMessage, type LiveSocket, type LiveStatus } from '../lib/live-client';
import { useReceiptCache, type ReceiptCache } from '../use-receipt-cache';

async function freshAccessToken(): Promise<string | undefined> {
  const session = await fetchAuthSession();
  return session.tokens?.accessToken?.toString();
}

/** What one server event does to the caches (product.md section 4, live events). */
export function handleLiveMessage(message: LiveMessage, cache: ReceiptCache, activeCompanyId: string | null): void {
  handleLiveMessages([message], cache, activeCompanyId);
}

/**
 * What a burst of server events does to the caches: the documents of consecutive `receipt` / `receipt-update`
 * events are applied together (one update of each list, one render), the other events in their order.
 */
export function handleLiveMessages(messages: ReadonlyArray<LiveMessage>, cache: ReceiptCache, activeCompanyId: string | null): void {
  let receipts: Receipt[] = [];
  const flush = () => {
    if (receipts.length > 0) cache.applyReceipts(receipts, { live: true });
    receipts = [];
  };
  notifyManager.batch(() => {
    for (const message of messages) {
      if (message.event === 'receipt' || message.event === 'receipt-update') {
        const receipt = receiptOfPayload(message.payload);
        if (receipt) {
          receipts.push(receipt);
          continue;
        }
      }
      flush();
      handleOther(message, cache, activeCompanyId);
    }
    flush();
  });
}

function handleOther(message: LiveMessage, cache: ReceiptCache, activeCompanyId: string | null): void {
  switch (message.event) {
    case 'receipt':
    case 'receipt-update':
      // no document in the payload
      cache.refreshAll();
      break;
    case 'receipt-delete': {
      const id = receiptIdOfPayload(message.payload);
      if (id) cache.applyDelete(id);
      else cache.refreshAll();
      break;
    }
    case 'company':
      cache.applyCompany(message.payload);
      cache.refreshCounts();
      break;
    case 'company-delete':
      cache.applyCompanyDelete(message.payload, activeCompanyId);
      break;
    case 'membership':
      cache.applyMembership(message.payload);
      break;
    default:
      // pong, subscribed, error: nothing to update
      break;
  }
}

/** The documents a burst of events brings (those whose payload holds one). */
function receiptsOf(messages: ReadonlyArray<LiveMessage>): Receipt[] {
  const out: Receipt[] = [];
  for (const m of messages) {
    if (m.event !== 'receipt' && m.event !== 'receipt-update') continue;
    const receipt = receiptOfPayload(m.payload);
    if (receipt) out.push(receipt);
  }
  return out;
}

/**
 * The channel opened at `openedAt`: the events sent before it listened are lost, so what was read before then is
 * read again, once — after a break (a drop, a connection found dead after the laptop slept) every cached list and
 * count, and at the first connection what the screens read while it was being made (the companies and the list of
 * the sign-in, read before the socket was open).
 */
export function reloadAfterGap(openedAt: number, cache: Pick<ReceiptCache, 'refreshReadBefore'>): void {
  cache.refreshReadBefore(openedAt);
}

/** How long the events of a burst (a colleague's bulk action, a batch processed) are gathered before they are applied. */
export const LIVE_BATCH_MS = 50;

/**
 * Gathers the events that arrive within `delayMs` of the first one and hands them over together (each WebSocket
 * message is a task of its own: applied one by one, a bulk action of 1,000 documents renders the list 1,000 times).
 */
export function createLiveBatcher(apply: (messages: LiveMessage[]) => void, delayMs = LIVE_BATCH_MS) {
  let queue: LiveMessage[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const messages = queue;
    queue = [];
    if (messages.length > 0) apply(messages);
  };
  return {
    push(message: LiveMessage) {
      queue.push(message);
      if (!timer) timer = setTimeout(flush, delayMs);
    },
    flush,
    /** Drops what is waiting (the channel is closed). */
    stop() {
      if (timer) clearTimeout(timer);
      timer = null;
      queue = [];
    },
  };
}

/**
 * The live channel of the signed-in frame: one WebSocket following the active company (or ALL in the
 * all-companies view); its events update the lists and the side-menu counts without reloading.
 */
export function LiveChannel() {
  const config = useConfig();
  const { status: authStatus } = useAuth();
  const view = useActiveCompany();
  const cache = useReceiptCache();
  const [status, setStatus] = useState<LiveStatus>('idle');
  const [announcement, setAnnouncement] = useState<{ text: string; n: number } | null>(null);
  const clientRef = useRef<LiveClient | null>(null);
  const activeRef = useRef<string | null>(null);
  const activeId = view.active?.company_id ?? null;
  useEffect(() => {
    activeRef.current = activeId;
  }, [activeId]);
  const follow = view.isLoading ? null : view.allCompanies ? 'ALL' : (view.active?.company_id ?? null);

  useEffect(() => {
    if (authStatus !== 'signedIn' || !config.wsUrl) return;
    const batcher = createLiveBatcher((messages) => {
      const receipts = receiptsOf(messages);
      const before = cache.cachedStatuses(receipts.map((r) => r.receipt_id));
      handleLiveMessages(messages, cache, activeRef.current);
      const text = processedAnnouncement(receipts, before);
      if (text) setAnnouncement((last) => ({ text, n: (last?.n ?? 0) + 1 }));
      for (const message of messages) liveBus.emit(message);
    });
    const client = new LiveClient({
      url: config.wsUrl,
      getToken: freshAccessToken,
      createSocket: (url) => new WebSocket(url) as unknown as LiveSocket,
      onMessage: (message) => batcher.push(message),
      onOpen: () => reloadAfterGap(Date.now(), cache),
      onStatus: (next) => {
        liveStatus.set(next);
        setStatus(next);
      },
    });
    clientRef.current = client;
    // a laptop that slept or a network that dropped leaves a socket that looks open: ask at once
    const stopWake = onWake({ document, window }, () => client.wake());
    return () => {
      stopWake();
      client.stop();
      batcher.stop();
      liveStatus.set('idle');
      clientRef.current = null;
    };
  }, [authStatus, config.wsUrl, cache]);

  useEffect(() => {
    if (follow) clientRef.current?.start(follow);
    liveStatus.follow(clientRef.current ? follow : null);
  }, [follow, authStatus, config.wsUrl, cache]);

  // All companies: a company created or joined later is followed too (the server's list is made when asked).
  const companyIds = view.companies
    .map((c) => c.company_id)
    .sort()
    .join(',');
  const followedIds = useRef<string | null>(null);
  useEffect(() => {
    const before = followedIds.current;
    followedIds.current = companyIds;
    if (follow === 'ALL' && before !== null && before !== companyIds) clientRef.current?.refollow();
  }, [companyIds, follow]);

  return (
    <>
      <span hidden data-testid="live-status" data-status={status} />
      {/* Documents that finished being read, told to screen readers (their rows leave In Processing silently). */}
      <div className="sr-only" role="status" aria-live="polite" data-testid="live-announcement">
        {announcement && <span key={announcement.n}>{announcement.text}</span>}
      </div>
    </>
  );
}
