/**
 * Imported first by main.tsx and by rpc/client.ts (see there): the CSP forbids eval, and without this zod probes for it with new Function('')
 * (a CSP violation on every load) the first time any module parses with it.
 */
import { z } from 'zod';

z.config({ jitless: true });
