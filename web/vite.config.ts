import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The API is served by the same Fastify server on one origin; `npm run dev:web` proxies to it.
const apiPrefixes = ['/api', '/auth', '/schedule', '/bookmarks'];

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    proxy: Object.fromEntries(
      apiPrefixes.map((prefix) => [prefix, { target: process.env.API_ORIGIN ?? 'http://localhost:8080' }]),
    ),
  },
});
