/** The single IPC channel between preload and main, and the app origin the renderer is served from. */
export const RPC_CHANNEL = 'intel-desk:rpc';
export const APP_SCHEME = 'app';
export const APP_ORIGIN = 'app://desk';
