// The entry point VS Code's extension host calls with `extensionTestsPath`: under @vscode/test-electron
// on a desktop and under code-server here. It runs every `*.spec.js` next to it with mocha.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  // The audit of the sample spec takes seconds on a loaded 2-core machine; the waits inside the
  // tests carry their own, shorter limits with a message.
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 180_000, reporter: 'spec' });
  const grep = process.env['HERALD_VSCODE_GREP'];
  if (grep !== undefined && grep !== '') mocha.grep(grep);
  for (const file of fs.readdirSync(__dirname).filter((f) => f.endsWith('.spec.js')).sort()) {
    mocha.addFile(path.join(__dirname, file));
  }
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} VS Code test(s) failed`)) : resolve()));
  });
}
