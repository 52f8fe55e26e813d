import { createContext, useContext } from 'react';
import type { AppConfig } from '../lib/config';

export const ConfigContext = createContext<AppConfig | null>(null);

export function useConfig(): AppConfig {
  const config = useContext(ConfigContext);
  if (!config) throw new Error('useConfig outside ConfigContext');
  return config;
}
