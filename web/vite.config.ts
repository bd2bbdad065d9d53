import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import { VitePWA } from 'vite-plugin-pwa'
import { callRoutesPlugin } from './scripts/call-routes'
import { inlineEntryCss } from './scripts/inline-entry-css.mjs'
import { precompress } from './scripts/precompress.mjs'

const GATEWAY = 'http://localhost:8080'
const BRAND_COLOUR = '#0b0e11'

export default defineConfig({
  plugins: [
    react(),
    callRoutesPlugin(),
    inlineEntryCss(),
    VitePWA({
      // a new build waits for the user's consent (the update prompt) instead of swapping under them
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['favicon.svg', 'icons/apple-touch-icon.png'],
      manifest: {
        name: 'TradeGate',
        short_name: 'TradeGate',
        description:
          'Crypto spot, futures, second contracts and options, deposits, withdrawals and investing.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: BRAND_COLOUR,
        theme_color: BRAND_COLOUR,
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        // the shell: the page, its entry script and styles, icons; screens and languages come on use
        globPatterns: ['index.html', 'assets/index-*.{js,css}', 'favicon.svg', 'icons/*.png'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/(?:api|ws|admin|sandbox|metrics|healthz|readyz)/],
        runtimeCaching: [
          {
            // hashed file names never change content: a screen or language loaded once works offline
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/assets/'),
            handler: 'CacheFirst',
            options: { cacheName: 'assets', expiration: { maxEntries: 200 } },
          },
        ],
      },
    }),
    precompress(),
  ],
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
