import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// In production the API process serves dist/ and /api from one origin; in dev Vite proxies /api.
const API_ORIGIN = 'http://localhost:3000';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    port: 5173,
    // Keep the browser's Host header: the API's same-origin check compares it with Origin.
    proxy: { '/api': { target: API_ORIGIN, changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
  },
  test: {
    environment: 'jsdom',
    environmentOptions: { jsdom: { url: 'http://localhost/' } },
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    restoreMocks: true,
    // vitest's default in a run is one worker per core but one: a single worker on a 2-core
    // machine. Two took the suite from 7 min 22 s (one, beside the scale-out bed) to 2 min 45 s.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A page test types and clicks through jsdom: 1–3 s alone, up to 7 s on a loaded 2-core machine
    // (one such run timed out at vitest's default of 5 s). A hung test still fails, at 15 s.
    testTimeout: 15_000,
  },
});
