import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

// Native and heavy Node dependencies stay external to the main bundle (externalizeDeps); the preload runs in
// a sandbox that cannot require node_modules, so it is bundled whole and emitted as CommonJS.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // Core's worker thread is its own entry: main starts it as out/main/core-worker.js.
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'electron/main.ts'),
          'core-worker': resolve(__dirname, 'src/host/core-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'electron/preload.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    base: './',
    plugins: [react()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      emptyOutDir: true,
      // electron-vite leaves builds unminified; the renderer's first load is what the Shelf waits for.
      minify: true,
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
  },
});
