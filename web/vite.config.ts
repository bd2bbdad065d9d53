import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import { precompress } from './scripts/precompress.mjs'

const GATEWAY = 'http://localhost:8080'

export default defineConfig({
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    manifest: true,
    target: 'es2022',
    emptyOutDir: true,
  },
  server: {
    proxy: {
      '/api': GATEWAY,
      '/ws': { target: GATEWAY, ws: true },
    },
  },
})
