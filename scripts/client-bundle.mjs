// The client's bundles (dist/client.js, dist/report-view.js) may carry, of the server's code, only
// the contract: the files of its project (server/src/contract/tsconfig.json). The build fails when an
// input of either bundle under server/src is any other file, so no engine code reaches the client.
import * as path from 'node:path';
import ts from 'typescript';

const contractProject = 'server/src/contract/tsconfig.json';

/** The contract project's files, relative to the repository at `root` (forward slashes). */
export function contractFiles(root) {
  const configPath = path.join(root, contractProject);
  const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile);
  if (error !== undefined) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, path.dirname(configPath));
  return new Set(parsed.fileNames.map((f) => path.relative(root, f).split(path.sep).join('/')));
}

/** The inputs of an esbuild metafile (paths relative to `root`) under server/src that are not the contract's. */
export function engineInputs(metafile, root) {
  const contract = contractFiles(root);
  return Object.keys(metafile.inputs).filter((p) => p.startsWith('server/src/') && !contract.has(p)).sort();
}

/** Throws, naming them, when a bundle holds server code outside the contract. */
export function checkClientBundle(bundle, metafile, root) {
  const engine = engineInputs(metafile, root);
  if (engine.length > 0) {
    throw new Error(`${bundle} carries server code outside the contract (${contractProject}): ${engine.join(', ')}. The client imports only server/src/contract; ask the server for what the engine computes.`);
  }
}
