import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'e2e/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Builds out/ (app and CLI) once, so no test file builds while another runs from it.
    globalSetup: ['test/global-setup.ts'],
    // Vitest's default is one worker fewer than the cores: one on a two-core machine. Most test time is spent
    // waiting on child processes (anvil, Chromium, the service, CLI runs), so two files at once keep both
    // cores busy.
    maxWorkers: 2,
  },
});
