// Gives components the one console client without reaching for globals.
import { createContext, useContext, type ReactNode } from 'react';
import type { ConsoleClient } from '../../../shared/contract';

const ClientContext = createContext<ConsoleClient | null>(null);

export function ClientProvider({ client, children }: { client: ConsoleClient; children: ReactNode }) {
  return <ClientContext.Provider value={client}>{children}</ClientContext.Provider>;
}

export function useConsoleClient(): ConsoleClient {
  const client = useContext(ClientContext);
  if (!client) throw new Error('useConsoleClient must be used inside <ClientProvider>.');
  return client;
}
