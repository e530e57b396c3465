import * as path from 'node:path';
import {
  ProcessExecution, Task, TaskGroup, TaskRevealKind, tasks, workspace, type Disposable, type TaskDefinition, type TaskProvider, type WorkspaceFolder,
} from 'vscode';
import type { SpecOutline } from '../../server/src/contract/index';
import type { ServerSession } from './server-session';
import { specOutline } from './spec-outline';

// Tasks of type `herald` run `herald audit|signal|compare <spec>` with the command line bundled in the
// extension (dist/herald.js): the same analyses, output and exit code as CI, with the `$herald`
// problem matchers (package.json) turning its `file:line:col: severity code message` lines into
// problems. The provider offers "herald: audit <spec>" for each spec in the workspace folders with an
// audit block, and `signal` / `compare` for training and comparison blocks.

export const heraldTaskType = 'herald';

const heraldCommands = ['audit', 'signal', 'compare'] as const;
type HeraldCommand = (typeof heraldCommands)[number];

const commandOfBlock: Record<SpecOutline['blocks'][number]['kind'], HeraldCommand> = { audit: 'audit', training: 'signal', comparison: 'compare' };

export interface HeraldTaskDefinition extends TaskDefinition {
  /** The spec, relative to the workspace folder. */
  readonly spec: string;
  /** The `herald` subcommand; `audit` when left out. */
  readonly command?: HeraldCommand;
  /** More options for it, e.g. `["--audit", "paper"]`. */
  readonly args?: readonly string[];
}

const problemMatchers = ['$herald', '$herald-rows'];

const details: Record<HeraldCommand, string> = {
  audit: 'every audit of the spec, as CI runs it: exit 1 when an expect line fails',
  signal: 'training-signal exposure of each penalty: exit 1 when one reaches too few update groups',
  compare: 'paired comparison of two trained policies: exit 1 when the non-inferiority gate fails',
};

function isHeraldDefinition(definition: TaskDefinition): definition is HeraldTaskDefinition {
  const command: unknown = definition['command'];
  const args: unknown = definition['args'];
  return typeof definition['spec'] === 'string'
    && (command === undefined || heraldCommands.some((c) => c === command))
    && (args === undefined || (Array.isArray(args) && args.every((a) => typeof a === 'string')));
}

/** The subcommands a spec's blocks call for; `audit` alone while the server cannot say. */
function commandsFor(outline: SpecOutline | 'unreadable' | undefined): HeraldCommand[] {
  if (outline === 'unreadable') return [];
  if (outline === undefined) return ['audit'];
  const wanted = new Set(outline.blocks.map((b) => commandOfBlock[b.kind]));
  return heraldCommands.filter((c) => wanted.has(c));
}

class AnalysisTaskProvider implements TaskProvider {
  constructor(private readonly cli: string, private readonly session: ServerSession) {}

  async provideTasks(): Promise<Task[]> {
    const specs = await workspace.findFiles('**/*.reward', '**/node_modules/**');
    const perSpec = await Promise.all(specs.map(async (uri) => {
      const folder = workspace.getWorkspaceFolder(uri);
      if (folder === undefined) return [];
      const spec = path.relative(folder.uri.fsPath, uri.fsPath).split(path.sep).join('/');
      return commandsFor(await specOutline(this.session, uri)).map((command) =>
        this.task(folder, command === 'audit' ? { type: heraldTaskType, spec } : { type: heraldTaskType, spec, command }));
    }));
    return perSpec.flat().sort((a, b) => a.name.localeCompare(b.name));
  }

  /** A `herald` task written in tasks.json: its definition, with the execution filled in. */
  resolveTask(task: Task): Task | undefined {
    const folder = typeof task.scope === 'object' ? task.scope : undefined;
    if (!isHeraldDefinition(task.definition) || folder === undefined) return undefined;
    return this.task(folder, task.definition);
  }

  private task(folder: WorkspaceFolder, definition: HeraldTaskDefinition): Task {
    const command = definition.command ?? 'audit';
    // The extension host's own runtime runs the CLI, so no Node needs to be installed; under a desktop
    // VS Code that runtime is Electron, which behaves as Node with ELECTRON_RUN_AS_NODE. A trusted
    // workspace is the editor's consent to run a spec's programs, as the language server reads it, so
    // the task gives the CLI the same consent (HERALD_ALLOW_COMMANDS); tasks never run untrusted.
    const execution = new ProcessExecution(process.execPath, [this.cli, command, definition.spec, ...(definition.args ?? [])], {
      cwd: folder.uri.fsPath, env: { ELECTRON_RUN_AS_NODE: '1', ...(workspace.isTrusted ? { HERALD_ALLOW_COMMANDS: '1' } : {}) },
    });
    const task = new Task(definition, folder, `${command} ${definition.spec}`, heraldTaskType, execution, problemMatchers);
    task.group = TaskGroup.Test;
    task.detail = details[command];
    task.presentationOptions = { reveal: TaskRevealKind.Always, clear: true };
    return task;
  }
}

/** Registers the provider; `cli` is the bundled command line's path. */
export function registerAnalysisTasks(cli: string, session: ServerSession): Disposable {
  return tasks.registerTaskProvider(heraldTaskType, new AnalysisTaskProvider(cli, session));
}
