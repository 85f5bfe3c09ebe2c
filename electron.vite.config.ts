// Builds the desktop app into out/: main (Electron glue plus the evaluation
// worker and module-host entries, which electron-vite bundles as separate
// files so their paths can be passed in explicitly), the sandboxed preload
// (one CommonJS file: a sandboxed preload cannot load other modules), and
// the React renderer, which `emberbench serve` also serves in browser mode.
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve('src/main/index.ts'),
          'evaluation-worker': resolve('src/node/eval/worker.ts'),
          'module-host': resolve('src/node/agents/module-host-main.ts'),
          'archive-worker': resolve('src/node/jobs/archive-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      // A sandboxed preload cannot require packages: bundle everything (zod) but Electron itself.
      externalizeDeps: false,
      outDir: 'out/preload',
      rollupOptions: { input: { index: resolve('src/preload/index.ts') }, output: { format: 'cjs', entryFileNames: '[name].cjs' } },
    },
  },
  renderer: {
    root: 'src/renderer',
    base: './',
    build: { outDir: 'out/renderer', minify: true, rollupOptions: { input: resolve('src/renderer/index.html') } },
    plugins: [react()],
  },
});
