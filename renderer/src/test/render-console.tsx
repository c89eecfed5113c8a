// Renders the console (or a part of it) against a fake client and a fake platform, with fresh
// stores and a fresh query cache for every test.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach } from 'vitest';
import type { Lease } from '../../../shared/domain';
import { ClientProvider } from '../api/client-context';
import { App } from '../components/App';
import { PlatformProvider } from '../platform/platform-context';
import { useContainmentStore } from '../state/containment-store';
import { useDialogStore } from '../state/dialog-store';
import { useLeaseListStore } from '../state/lease-list-store';
import { useTailStore } from '../state/tail-store';
import { useUiStore } from '../state/ui-store';
import { FakeConsole } from './fake-client';
import { FakePlatform } from './fake-platform';
import { installLayout } from './layout';

installLayout();

afterEach(() => {
  cleanup();
  useUiStore.setState(useUiStore.getInitialState(), true);
  useLeaseListStore.setState(useLeaseListStore.getInitialState(), true);
  useDialogStore.setState(useDialogStore.getInitialState(), true);
  useContainmentStore.setState(useContainmentStore.getInitialState(), true);
  useTailStore.setState(useTailStore.getInitialState(), true);
});

export interface RenderedConsole extends RenderResult {
  readonly fake: FakeConsole;
  readonly platform: FakePlatform;
}

export function renderWithConsole(ui: ReactElement, fake = new FakeConsole(), platform = new FakePlatform()): RenderedConsole {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <ClientProvider client={fake.client}>
        <PlatformProvider platform={platform}>{ui}</PlatformProvider>
      </ClientProvider>
    </QueryClientProvider>,
  );
  return { ...result, fake, platform };
}

/** The whole console, waited until it is live (the watch delivered its snapshot). */
export async function renderConsole(leases: readonly Lease[] = [], platform = new FakePlatform()): Promise<RenderedConsole> {
  const rendered = renderWithConsole(<App />, new FakeConsole(leases), platform);
  await screen.findByText('Live');
  return rendered;
}
