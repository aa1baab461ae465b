/**
 * The reference service (src/service) in a process of its own, over a chain the driver already runs, so the
 * driver can kill it with SIGKILL in the middle of a settlement and start it again on the same store.
 */
import { z } from 'zod';
import { privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import { startService } from '../../src/service/stack';
import { chainClients } from '../../src/service/chain/token';
import { loadDemoToken } from '../../src/service/chain/compile';
import type { DemoChain } from '../../src/service/chain/demo-chain';

const env = z
  .object({
    DATA_DIR: z.string().min(1),
    RPC_URL: z.string().url(),
    CHAIN_ID: z.coerce.number().int().positive(),
    ASSET: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
    PAY_TO: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
    FACILITATOR_KEY: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
    PORT: z.coerce.number().int().min(0).max(65535),
    UNIT_PRICE_USD: z.coerce.number().positive(),
    LIBRARY_SECRET: z.string().min(1),
    HANDLES: z.coerce.number().int().positive(),
    MIN_REPORTS: z.coerce.number().int().positive(),
    MAX_REPORTS: z.coerce.number().int().positive(),
  })
  .parse(process.env);

const facilitatorKey = env.FACILITATOR_KEY as Hex;
const asset = env.ASSET as `0x${string}`;
const chain: DemoChain = {
  rpcUrl: env.RPC_URL,
  anvilPid: 0,
  chainId: env.CHAIN_ID,
  network: `eip155:${env.CHAIN_ID}`,
  token: { address: asset, contract: loadDemoToken() },
  asset,
  payTo: env.PAY_TO as `0x${string}`,
  facilitatorKey,
  buyerKeys: [],
  clients: chainClients(env.CHAIN_ID, env.RPC_URL, facilitatorKey),
  mining: 'interval',
  // The chain is the driver's: this process never stops it.
  stop: async () => undefined,
};
// The facilitator account is the chain's deployer; its address is only a sanity check of the key.
privateKeyToAccount(facilitatorKey);

const service = await startService(chain, {
  dataDir: env.DATA_DIR,
  port: env.PORT,
  unitPriceUsd: env.UNIT_PRICE_USD,
  librarySecret: env.LIBRARY_SECRET,
  seed: { handles: env.HANDLES, minReportsPerHandle: env.MIN_REPORTS, maxReportsPerHandle: env.MAX_REPORTS },
});
process.send?.({ baseUrl: service.baseUrl });
process.on('message', () => {
  void service.close().then(() => process.exit(0));
});
