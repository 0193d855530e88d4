import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup/isolate-home.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // End-to-end tests spawn the built binary; two cores, so keep the pool small.
    maxWorkers: 2,
  },
});
