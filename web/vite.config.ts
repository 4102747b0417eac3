import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const webDir = fileURLToPath(new URL('.', import.meta.url));
const apiTarget = process.env.EELARVE_API_URL ?? 'http://127.0.0.1:3000';

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}

/** The short git revision of the build; CI may pass it in, a tree without commits falls back to "dev". */
function gitRevision(): string {
  if (process.env.EELARVE_REVISION) return process.env.EELARVE_REVISION;
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: webDir, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return 'dev';
  }
}

/** Built files the gateway serves as they are (index.html is filled per response, maps are for debugging). */
const PRECOMPRESSED = /\.(js|css|svg)$/;

/**
 * A .br (quality 11) and a .gz (level 9) beside each built script, style and image: the gateway
 * sends them as they are (@fastify/static's preCompressed) instead of compressing the app's 2.3 MB
 * of scripts on every page load, on the two cores that also compute the page's first report.
 */
function precompress(): Plugin {
  const brotli = promisify(brotliCompress);
  const gzipped = promisify(gzip);
  return {
    name: 'eelarve-precompress',
    apply: 'build',
    async closeBundle() {
      const outDir = path.join(webDir, 'dist');
      const files = (await readdir(outDir, { recursive: true })).filter((file) => PRECOMPRESSED.test(file));
      await Promise.all(
        files.map(async (file) => {
          const content = await readFile(path.join(outDir, file));
          const [br, gz] = await Promise.all([
            brotli(content, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: content.length } }),
            gzipped(content, { level: 9 }),
          ]);
          await Promise.all([writeFile(path.join(outDir, `${file}.br`), br), writeFile(path.join(outDir, `${file}.gz`), gz)]);
        }),
      );
    },
  };
}

export default defineConfig(({ mode }) => ({
  plugins: [react(), precompress()],
  // The gateway puts each response's CSP nonce here (services/gateway/src/plugins/web.ts); the
  // grid's injected <style> elements carry it (grid/setup.ts), so styles need no 'unsafe-inline'.
  html: { cspNonce: '__EELARVE_CSP_NONCE__' },
  define: {
    __APP_VERSION__: JSON.stringify(packageVersion()),
    __APP_REVISION__: JSON.stringify(gitRevision()),
    __APP_BUILD_TIME__: JSON.stringify(new Date().toISOString()),
    __APP_ENVIRONMENT__: JSON.stringify(process.env.EELARVE_ENVIRONMENT ?? (mode === 'development' ? 'development' : 'local')),
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/initial': { target: apiTarget, changeOrigin: false },
      '/public': { target: apiTarget, changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/initial': { target: apiTarget, changeOrigin: false },
      '/public': { target: apiTarget, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 2000,
    rollupOptions: {
      output: {
        manualChunks: {
          react: ['react', 'react-dom', 'react-router', 'react-intl', '@tanstack/react-query'],
          'ag-grid': ['ag-grid-community', 'ag-grid-react'],
        },
      },
      onwarn(warning, defaultHandler) {
        // zod's sources carry comments that Rollup cannot place; they are harmless.
        if (warning.code === 'INVALID_ANNOTATION') return;
        defaultHandler(warning);
      },
    },
  },
}));
