/** The IPC channels between preload and main (calls in, core's events out), and the app origin. */
export const RPC_CHANNEL = 'intel-desk:rpc';
export const EVENT_CHANNEL = 'intel-desk:event';
export const APP_SCHEME = 'app';
export const APP_ORIGIN = 'app://desk';
