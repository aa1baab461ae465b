import './zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRpcClient, RpcCallError } from './rpc/client';
import { RpcProvider } from './rpc/context';
import { createInvalidator, refreshingClient } from './rpc/invalidation';
import { App } from './app/App';
import './styles/base.css';
import './styles/panels.css';
import './styles/charts-forms.css';
import './styles/library-purchases.css';

const connection = createRpcClient();
const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Core already retries the network and answers from its cache; a refused request will not improve.
      retry: (failures, error) => failures < 1 && !(error instanceof RpcCallError),
      refetchOnWindowFocus: false,
      staleTime: 10_000,
    },
  },
});
const invalidator = createInvalidator(queryClient);
const rpc = { ...connection, invalidator, client: refreshingClient(connection.client, invalidator) };

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      {rpc.hasToken ? (
        // Wallet code (wagmi, WalletConnect) loads with the screens that use it: see WalletScope in App.tsx.
        <QueryClientProvider client={queryClient}>
          <RpcProvider value={rpc}>
            <App />
          </RpcProvider>
        </QueryClientProvider>
      ) : (
        <main className="content">
          <h1>Intel Desk</h1>
          <p role="alert">
            Open Intel Desk with the link `npm start` printed; it carries this run's access token.
          </p>
        </main>
      )}
    </StrictMode>,
  );
}
