// Hover and completion latency of the real server (dist/server.js over stdio) while it audits
// samples/paper.reward in its worker, against the same requests when no audit runs. Prints
// figures; asserts nothing. Run: npm run bench:latency
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import * as fs from 'node:fs';
import { CompletionRequest, HoverRequest } from 'vscode-languageserver-protocol/node';
import { auditStatusNotification, type AuditStatusParams } from '../../server/src/lsp/protocol.js';
import { positionIn, pullClientCapabilities, repoRoot, TestClient } from '../lsp/lsp-test-client.js';

const specFile = path.join(repoRoot, 'samples/paper.reward');
const text = fs.readFileSync(specFile, 'utf8');
const uri = pathToFileURL(specFile).href;

function summary(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  return `${String(sorted.length).padStart(5)} ${at(0.5).toFixed(2).padStart(9)} ${at(0.95).toFixed(2).padStart(9)} ${sorted[sorted.length - 1]!.toFixed(2).padStart(9)}`;
}

async function main(): Promise<void> {
  const client = await TestClient.start({ capabilities: pullClientCapabilities, settings: { audit: { run: 'manual' } } });
  let state: AuditStatusParams['state'] | undefined;
  client.connection.onNotification(auditStatusNotification, (p: AuditStatusParams) => {
    state = p.state;
  });
  const hoverAt = positionIn(text, 'detector L', 'detector '.length);
  const completeAt = positionIn(text, 'any c in citations: c in corpus', 'any c in citations: c '.length);
  const measure = async (hovers: number[], completions: number[]): Promise<void> => {
    let start = performance.now();
    await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: hoverAt });
    hovers.push(performance.now() - start);
    start = performance.now();
    await client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: completeAt });
    completions.push(performance.now() - start);
  };

  // Manual mode: opening does not audit, so the first round is the idle reference.
  await client.open(uri, text);
  const idle = { hover: [] as number[], completion: [] as number[] };
  for (let i = 0; i < 200; i++) await measure(idle.hover, idle.completion);

  const busy = { hover: [] as number[], completion: [] as number[] };
  const started = performance.now();
  const audit = client.connection.sendRequest('herald/runAudit', { uri });
  let finished = false;
  void audit.then(() => {
    finished = true;
  });
  while (!finished) await measure(busy.hover, busy.completion);
  const auditMs = performance.now() - started;
  await client.stop();

  console.log(`LSP latency while auditing ${path.relative(process.cwd(), specFile)} (3 audits, ${(auditMs / 1000).toFixed(1)} s, state ${state})`);
  console.log('');
  console.log(`${'request'.padEnd(30)} ${'n'.padStart(5)} ${'median ms'.padStart(9)} ${'p95 ms'.padStart(9)} ${'max ms'.padStart(9)}`);
  console.log(`${'hover, idle'.padEnd(30)} ${summary(idle.hover)}`);
  console.log(`${'hover, during the audit'.padEnd(30)} ${summary(busy.hover)}`);
  console.log(`${'completion, idle'.padEnd(30)} ${summary(idle.completion)}`);
  console.log(`${'completion, during the audit'.padEnd(30)} ${summary(busy.completion)}`);
  const worst = Math.max(...busy.hover, ...busy.completion);
  console.log('');
  console.log(`slowest answer during the audit: ${worst.toFixed(2)} ms (${worst < 50 ? 'under' : 'NOT under'} the 50 ms target)`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
