import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import importX from 'eslint-plugin-import-x'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'

// A feature imports only the shared layers (app, components, lib) and its own folder; what two
// features need moves down into components/ or lib/.
const FEATURES = readdirSync(new URL('./web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
const featureZones = FEATURES.map((feature) => ({
  target: `./web/src/features/${feature}`,
  from: './web/src/features',
  except: [`./${feature}`],
  message: 'a feature must not import another feature; move what both need to components/ or lib/',
}))

// The gateway's layers, bottom up: lib/ (errors, small helpers), plugins/ (Fastify's cross-cutting
// parts), upstream/ (the client to the exchange and what its answers mean for a session), then api/
// and live/ side by side (the calls and the socket). A layer imports only the layers under it, and
// the two top layers never import each other.
const GATEWAY_TOP_LAYERS = ['./gateway/src/api', './gateway/src/live']
const gatewayLayerZones = [
  {
    target: './gateway/src/api',
    from: './gateway/src/live',
    message: 'api/ and live/ sit side by side; move what both need to gateway/src/upstream or lower',
  },
  {
    target: './gateway/src/live',
    from: './gateway/src/api',
    message: 'api/ and live/ sit side by side; move what both need to gateway/src/upstream or lower',
  },
  {
    target: './gateway/src/upstream',
    from: GATEWAY_TOP_LAYERS,
    message: 'upstream/ sits under api/ and live/; it tells them of session ends through events',
  },
  {
    target: './gateway/src/plugins',
    from: [...GATEWAY_TOP_LAYERS, './gateway/src/upstream'],
    message: 'plugins/ sits under upstream/, api/ and live/; move what both need to gateway/src/lib',
  },
  {
    target: './gateway/src/lib',
    // config.ts, app.ts and main.ts sit on top of every layer, so lib/ reaches none of them either
    from: [
      ...GATEWAY_TOP_LAYERS,
      './gateway/src/upstream',
      './gateway/src/plugins',
      './gateway/src/config.ts',
      './gateway/src/app.ts',
      './gateway/src/main.ts',
    ],
    message: 'lib/ is the bottom layer and imports no other part of the gateway',
  },
]

const DISPLAY_RULE_MESSAGE =
  'a figure is shown through useFormatters (or a show* function of shared/src/display.ts), by the one display rule'

/** Ways to bring a number to some places other than the display rule's. */
const displayPathRules = [
  {
    selector: "CallExpression[callee.property.name='toFixed'][arguments.length>0]",
    message: DISPLAY_RULE_MESSAGE,
  },
  { selector: "CallExpression[callee.property.name='toDecimalPlaces']", message: DISPLAY_RULE_MESSAGE },
  {
    selector: 'CallExpression[callee.property.name=/^(toPrecision|toSignificantDigits|toLocaleString)$/]',
    message: DISPLAY_RULE_MESSAGE,
  },
  { selector: 'MemberExpression[property.name=/^ROUND_/]', message: DISPLAY_RULE_MESSAGE },
  {
    selector: "NewExpression[callee.object.name='Intl'][callee.property.name='NumberFormat']",
    message: DISPLAY_RULE_MESSAGE,
  },
]

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.artifacts/**', 'loadtests/build/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The React Compiler's checks (purity, refs, static components...) are most of lint's time, so
    // they run only where components and hooks live; tests and build scripts hold none.
    files: ['web/src/**/*.{ts,tsx}'],
    ignores: ['web/src/**/*.test.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ noWarnOnMultipleProjects: true })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        // zones are paths from the repository root, wherever eslint is started from
        { zones: featureZones, basePath: fileURLToPath(new URL('.', import.meta.url)) },
      ],
    },
  },
  {
    // The one display rule (shared/src/display.ts): a screen brings a figure to its places only
    // through useFormatters or the shared show* functions, never by rounding or formatting it itself.
    // A feature's lib/ computes what is sent (a limit premium, a book level) and may round for that.
    files: ['web/src/features/*/{components,screens}/**/*.{ts,tsx}', 'web/src/components/**/*.{ts,tsx}'],
    ignores: ['web/src/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': ['error', ...displayPathRules],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@tradegate/shared',
              importNames: ['formatPrice', 'formatPercent'],
              message: 'figures go through useFormatters or the show* functions of the display rule',
            },
          ],
        },
      ],
    },
  },
  {
    // gateway/src and gateway/sandbox talk only over the network, never through imports
    files: ['gateway/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/sandbox/**'] }],
      // layers point one way: lib/ under plugins/ under upstream/ under api/ and live/
      'import-x/no-restricted-paths': [
        'error',
        { zones: gatewayLayerZones, basePath: fileURLToPath(new URL('.', import.meta.url)) },
      ],
    },
  },
  {
    files: ['gateway/sandbox/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/src/**'] }] },
  },
  {
    // stand-ins for CommonJS dependencies inside the bundle (gateway/build.mjs): CommonJS themselves, since
    // their importers require them, and each loads the real module with require on first use
    files: ['gateway/loaded-on-use/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
)
