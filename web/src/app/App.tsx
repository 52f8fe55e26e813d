import { QueryClientProvider } from '@tanstack/react-query';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { Button } from '../components/ui/Button';
import { InfoPopupProvider } from '../components/ui/InfoPopup';
import { LoadingBlock } from '../components/ui/Spinner';
import { configureAmplify } from '../lib/amplify';
import { loadConfig, type AppConfig } from '../lib/config';
import { createQueryClient } from '../lib/query-client';
import { ActiveCompanyProvider } from './active-company';
import { ApiProvider } from './api-context';
import { AuthProvider } from './auth';
import { ConfigContext } from './config-context';
import { AppRoutes } from './router';
import { SessionExpiryProvider } from './session-expiry';

export function Providers({ config, children }: { config: AppConfig; children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <ConfigContext.Provider value={config}>
      <BrowserRouter>
        <QueryClientProvider client={queryClient}>
          <InfoPopupProvider>
            <SessionExpiryProvider>
              <AuthProvider>
                <ActiveCompanyProvider>
                  <ApiProvider>{children}</ApiProvider>
                </ActiveCompanyProvider>
              </AuthProvider>
            </SessionExpiryProvider>
          </InfoPopupProvider>
        </QueryClientProvider>
      </BrowserRouter>
    </ConfigContext.Provider>
  );
}

type Boot = { state: 'loading' } | { state: 'ready'; config: AppConfig } | { state: 'failed'; message: string };

/** Loads /config.json, configures Amplify, then renders the app. */
export function App() {
  const [boot, setBoot] = useState<Boot>({ state: 'loading' });

  const start = useCallback(() => {
    setBoot({ state: 'loading' });
    loadConfig()
      .then((config) => {
        configureAmplify(config);
        setBoot({ state: 'ready', config });
      })
      .catch((err: unknown) => setBoot({ state: 'failed', message: err instanceof Error ? err.message : String(err) }));
  }, []);

  useEffect(start, [start]);

  if (boot.state === 'loading') {
    return (
      <div className="full-page-center">
        <LoadingBlock label="Starting" />
      </div>
    );
  }
  if (boot.state === 'failed') {
    return (
      <div className="full-page-center">
        <div className="card boot-error" role="alert">
          <h1>The application could not start</h1>
          <p>{boot.message}</p>
          <Button onClick={start}>Try again</Button>
        </div>
      </div>
    );
  }
  return (
    <Providers config={boot.config}>
      <AppRoutes />
    </Providers>
  );
}
