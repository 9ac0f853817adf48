import { QueryClient } from '@tanstack/react-query';
import { isTransientError } from './api-error';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        retry: (failureCount, error) => failureCount < 2 && isTransientError(error),
      },
      mutations: { retry: false },
    },
  });
}
