// The entry of dist/engine.js, the one bundle that holds the engine: dist/server.js,
// dist/analysis-worker.js, dist/prepare-worker.js and dist/herald.js are one-line starters that
// each call one of these, so every dependency ships once instead of once per file. Each part is imported only when started, so
// none runs another's start-up code (the server's connection, the worker's port, the CLI's argv).
export const startServer = (): Promise<unknown> => import('./lsp/main.js');
export const startAnalysisWorker = (): Promise<unknown> => import('./lsp/analysis-worker.js');
export const startPrepareWorker = (): Promise<unknown> => import('./threads/prepare-worker.js');
export const startCli = (): Promise<unknown> => import('./cli/main.js');
