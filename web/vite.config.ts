import { defineConfig } from 'vitest/config';

// `npm run dev` serves the client with hot reload and sends API calls to a local
// `gobeyond serve --allow-origin http://127.0.0.1:5173`.
export default defineConfig({
  server: {
    host: '127.0.0.1',
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080', ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 700,
  },
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
  },
});
