// Renderer entry: choose the transport and the platform, build the query client, render the console.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ClientProvider } from './api/client-context';
import { App } from './components/App';
import { createBrowserPlatform } from './platform/browser-platform';
import { PlatformProvider } from './platform/platform-context';
import { createConsoleClient } from './transport/create-console-client';
import './styles.css';

const { client } = createConsoleClient(() => undefined);
const platform = createBrowserPlatform();
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });
const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <ClientProvider client={client}>
        <PlatformProvider platform={platform}>
          <App />
        </PlatformProvider>
      </ClientProvider>
    </QueryClientProvider>
  </StrictMode>,
);
