import type { LanguageClient } from 'vscode-languageclient/node';
import {
  auditStatusNotification, trainingSignalStatusNotification, type AuditStatusParams, type TrainingSignalStatusParams,
} from '../../server/src/contract/index';

/**
 * Owns the language client across restarts. A client whose start failed cannot be started
 * again, so every (re)start builds a fresh client from the factory.
 */
export class ServerSession {
  private client: LanguageClient | undefined;
  // Operations run one at a time, so a restart clicked twice, or a deactivation during a start,
  // never leaves a second server process behind.
  private queue: Promise<unknown> = Promise.resolve();
  private readonly statusListeners = new Set<(params: AuditStatusParams) => void>();
  private readonly trainingListeners = new Set<(params: TrainingSignalStatusParams) => void>();

  constructor(private readonly createClient: () => LanguageClient) {}

  /** The client while its server runs; undefined while stopped or (re)starting. */
  get running(): LanguageClient | undefined {
    return this.client?.isRunning() ? this.client : undefined;
  }

  /**
   * Every audit status notification, whichever client is running. A connection keeps one handler
   * per method, so the session registers one on each client and fans it out.
   */
  onAuditStatus(listener: (params: AuditStatusParams) => void): { dispose(): void } {
    this.statusListeners.add(listener);
    return { dispose: () => this.statusListeners.delete(listener) };
  }

  /** Every training-signal status notification (training and comparison blocks), fanned out likewise. */
  onTrainingStatus(listener: (params: TrainingSignalStatusParams) => void): { dispose(): void } {
    this.trainingListeners.add(listener);
    return { dispose: () => this.trainingListeners.delete(listener) };
  }

  /**
   * Resolves to whether the server is running. A failed start does not reject: the client has
   * already logged the cause to its output channel and shown a notification.
   */
  start(): Promise<boolean> {
    return this.enqueue(() => this.startClient());
  }

  restart(): Promise<boolean> {
    return this.enqueue(async () => {
      await this.stopClient();
      return this.startClient();
    });
  }

  stop(): Promise<void> {
    return this.enqueue(() => this.stopClient());
  }

  private enqueue<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.queue.then(operation);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async startClient(): Promise<boolean> {
    const client = this.createClient();
    this.client = client;
    client.onNotification(auditStatusNotification, (params) => {
      for (const listener of this.statusListeners) listener(params);
    });
    client.onNotification(trainingSignalStatusNotification, (params) => {
      for (const listener of this.trainingListeners) listener(params);
    });
    try {
      await client.start();
      return true;
    } catch {
      return false;
    }
  }

  private async stopClient(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    // Only a running client has a server to shut down; stopping a client in any other state throws.
    if (client?.isRunning()) {
      await client.dispose();
    }
  }
}
