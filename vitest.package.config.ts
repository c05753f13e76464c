import { defineConfig } from 'vitest/config';

// Checks on the packed tarball, the way a user gets it. They need a build, so they run apart from `npm test`:
// `npm run build && npm run test:package`.
export default defineConfig({
  test: {
    include: ['test/package/**/*.test.ts'],
    globalSetup: ['test/package/pack-tarball.ts'],
  },
});
