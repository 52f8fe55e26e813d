import { fetchAuthSession } from 'aws-amplify/auth';
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { createApiClient, type ApiClient } from '../lib/api-client';
import { useActiveCompanyStore } from './active-company';
import { useConfig } from './config-context';
import { useAuth } from './auth';

const ApiContext = createContext<ApiClient | null>(null);

export function useApi(): ApiClient {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi outside ApiProvider');
  return api;
}

async function accessToken(): Promise<string | undefined> {
  const session = await fetchAuthSession();
  return session.tokens?.accessToken?.toString();
}

export function ApiProvider({ children }: { children: ReactNode }) {
  const config = useConfig();
  const store = useActiveCompanyStore();
  const { reportSessionExpired } = useAuth();
  const api = useMemo(
    () =>
      createApiClient({
        apiUrl: config.apiUrl,
        getAccessToken: accessToken,
        getCompanyId: () => store.getState().companyId,
        onUnauthorized: reportSessionExpired,
      }),
    [config.apiUrl, store, reportSessionExpired],
  );
  return <ApiContext.Provider value={api}>{children}</ApiContext.Provider>;
}
