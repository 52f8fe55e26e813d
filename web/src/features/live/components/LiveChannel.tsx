import { fetchAuthSession } from 'aws-amplify/auth';
import { useEffect, useRef, useState } from 'react';
import { useAuth } from '../../../app/auth';
import { useConfig } from '../../../app/config-context';
import { useActiveCompany } from '../../companies/api/companies';
import { receiptIdOfPayload, receiptOfPayload } from '../lib/cache-updates';
import { liveBus } from '../lib/live-bus';
import { LiveClient, type LiveMessage, type LiveSocket, type LiveStatus } from '../lib/live-client';
import { useReceiptCache, type ReceiptCache } from '../use-receipt-cache';

async function freshAccessToken(): Promise<string | undefined> {
  const session = await fetchAuthSession();
  return session.tokens?.accessToken?.toString();
}

/** What one server event does to the caches (product.md section 4, live events). */
export function handleLiveMessage(message: LiveMessage, cache: ReceiptCache, activeCompanyId: string | null): void {
  switch (message.event) {
    case 'receipt':
    case 'receipt-update': {
      const receipt = receiptOfPayload(message.payload);
      if (receipt) cache.applyReceipt(receipt);
      else cache.refreshAll();
      break;
    }
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
  const clientRef = useRef<LiveClient | null>(null);
  const activeRef = useRef<string | null>(null);
  const activeId = view.active?.company_id ?? null;
  useEffect(() => {
    activeRef.current = activeId;
  }, [activeId]);
  const follow = view.isLoading ? null : view.allCompanies ? 'ALL' : (view.active?.company_id ?? null);

  useEffect(() => {
    if (authStatus !== 'signedIn' || !config.wsUrl) return;
    const client = new LiveClient({
      url: config.wsUrl,
      getToken: freshAccessToken,
      createSocket: (url) => new WebSocket(url) as unknown as LiveSocket,
      onMessage: (message) => {
        handleLiveMessage(message, cache, activeRef.current);
        liveBus.emit(message);
      },
      // events sent while the connection was down are lost: reload what is cached
      onOpen: ({ reconnected }) => {
        if (reconnected) cache.refreshAll();
      },
      onStatus: setStatus,
    });
    clientRef.current = client;
    return () => {
      client.stop();
      clientRef.current = null;
    };
  }, [authStatus, config.wsUrl, cache]);

  useEffect(() => {
    if (follow) clientRef.current?.start(follow);
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

  return <span hidden data-testid="live-status" data-status={status} />;
}
