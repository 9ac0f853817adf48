import type { QueryClient } from '@tanstack/react-query';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Toaster } from 'sonner';
import { ThemeProvider, useTheme } from './features/theme/theme-provider';
import { type ApiClient, TRPCProvider } from './lib/trpc';

function ThemedToaster() {
  const { resolved } = useTheme();
  return <Toaster theme={resolved} position="bottom-right" richColors closeButton />;
}

export interface AppProvidersProps {
  queryClient: QueryClient;
  apiClient: ApiClient;
  children: ReactNode;
}

/** Everything a page needs around it; tests mount the same providers around a memory router. */
export function AppProviders({ queryClient, apiClient, children }: AppProvidersProps) {
  return (
    <ThemeProvider>
      <QueryClientProvider client={queryClient}>
        <TRPCProvider queryClient={queryClient} trpcClient={apiClient}>
          {children}
          <ThemedToaster />
        </TRPCProvider>
      </QueryClientProvider>
    </ThemeProvider>
  );
}
