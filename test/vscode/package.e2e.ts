// What `npm run package` puts in the .vsix: the bundles the extension runs (the command line too,
// for the `herald` tasks), its static contributions, the walkthrough with its sample, the pages its
// diagnostics and hovers link to, the marketplace page and the changelog. Nothing else (no sources,
// tests, repository samples).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { inflateRawSync } from 'node:zlib';
import { repoRoot, vsixPath } from './code-server';

interface PackageJson {
  readonly scripts: Readonly<Record<string, string>>;
  readonly contributes: { readonly walkthroughs: readonly { readonly steps: readonly { readonly media: Readonly<Record<string, string>> }[] }[] };
}

const packageJson = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as PackageJson;
/** The marketplace page's source, as the package script hands it to vsce. */
const readmePath = /--readme-path (\S+)/.exec(packageJson.scripts['package'] ?? '')?.[1] ?? 'README.md';

/** Every file in a .zip with its bytes, read from the central directory (the .vsix is a plain zip). */
function zipEntries(file: string): Map<string, Buffer> {
  const zip = fs.readFileSync(file);
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = new Map<string, Buffer>();
  for (let i = 0; i < count; i += 1) {
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(dataStart, dataStart + compressed);
    entries.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The relative link targets of a markdown page: links and images, without anchors; web, mail and command links left out. */
function relativeLinks(markdown: string): string[] {
  const targets = [...markdown.matchAll(/!?\[[^\]]*\]\(([^)\s]+)[^)]*\)/g), ...markdown.matchAll(/<img[^>]+src=["']([^"']+)["']/g)].map((m) => m[1] ?? '');
  return targets.filter((t) => !/^([a-z]+:|#)/i.test(t)).map((t) => t.replace(/#.*$/, ''));
}

describe('the packaged extension', () => {
  it('lists exactly the files the extension needs', () => {
    const vsce = path.join(repoRoot, 'node_modules/.bin/vsce');
    const files = execFileSync(vsce, ['ls', '--no-dependencies', '--readme-path', readmePath], { cwd: repoRoot, encoding: 'utf8' }).split('\n').filter((l) => l !== '').sort();
    assert.deepEqual(files, [
      'CHANGELOG.md', 'LICENSE', 'README.extension.md',
      ...['__init__', '__main__', 'callable', 'protocol', 'trl', 'verl'].map((m) => `dist/adapters/herald_adapters/${m}.py`),
      'dist/analysis-worker.js', 'dist/client.js', 'dist/command-guard.js', 'dist/engine.js', 'dist/herald.js', 'dist/prepare-worker.js', 'dist/report-view.js', 'dist/server.js',
      'docs/diagnostics.md', 'docs/language.md', 'images/icon.png', 'language-configuration.json', 'package.json', 'syntaxes/reward.tmLanguage.json',
      'walkthrough/lattice.svg', 'walkthrough/new-spec.md', 'walkthrough/open-report.md', 'walkthrough/open-sample.md', 'walkthrough/read-finding.md',
      'walkthrough/run-tests.md', 'walkthrough/sample/paper.reward',
      'walkthrough/sample/pools/2wiki.jsonl', 'walkthrough/sample/pools/corpus.jsonl', 'walkthrough/sample/pools/hotpot.jsonl',
    ]);
  });

  it('is small', (t) => {
    const kib = fs.statSync(vsixPath).size / 1024;
    t.diagnostic(`${path.relative(repoRoot, vsixPath)}: ${kib.toFixed(0)} KiB`);
    assert.ok(kib < 1024, `${kib.toFixed(0)} KiB`);
  });

  it('shows the user-facing README as its page, and its relative links reach files in the package', () => {
    const entries = zipEntries(vsixPath);
    const readme = entries.get('extension/readme.md')?.toString('utf8');
    assert.equal(readme, fs.readFileSync(path.join(repoRoot, readmePath), 'utf8'), `the package's page is ${readmePath}`);
    assert.ok(entries.has('extension/changelog.md'), 'the package has a changelog');
    for (const page of ['extension/readme.md', 'extension/changelog.md']) {
      const links = relativeLinks(entries.get(page)?.toString('utf8') ?? '');
      const broken = links.filter((link) => !entries.has(path.posix.join('extension', link)));
      assert.deepEqual(broken, [], `${page} links to files the package does not hold`);
    }
    assert.ok(relativeLinks(readme ?? '').length >= 2, 'the page links to the language reference and the diagnostics');
  });

  it('holds every walkthrough page and the sample spec with the files it links', () => {
    const entries = zipEntries(vsixPath);
    const media = packageJson.contributes.walkthroughs.flatMap((w) => w.steps.flatMap((s) => Object.entries(s.media).filter(([key]) => key !== 'altText').map(([, file]) => file)));
    assert.ok(media.length >= 6);
    const sample = entries.get('extension/walkthrough/sample/paper.reward')?.toString('utf8') ?? '';
    const links = [...sample.matchAll(/^(?:corpus|pool)\s+\w+\s*=\s*"([^"]+)"/gm)].map((m) => path.posix.join('walkthrough/sample', m[1] ?? ''));
    assert.ok(links.length >= 2, 'the sample links a corpus and pools');
    assert.deepEqual([...media, ...links].filter((file) => !entries.has(`extension/${file}`)), []);
  });
});
