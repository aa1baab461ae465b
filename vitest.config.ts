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
    // expect.poll waits for a page or a desk to get somewhere. Its default second is shorter than a team sync
    // or a render takes on a loaded two-core CI machine; a poll that succeeds still returns at once.
    expect: { poll: { timeout: 15_000 } },
  },
});
