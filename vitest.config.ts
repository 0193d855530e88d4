import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup/isolate-home.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // End-to-end tests spawn the built binary and wait on it, on servers and on clocks: two workers
    // more than the two cores keep them busy while a test waits (README: how long npm test takes).
    maxWorkers: 4,
  },
});
