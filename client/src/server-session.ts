import type { LanguageClient } from 'vscode-languageclient/node';

/**
 * Owns the language client across restarts. A client whose start failed cannot be started
 * again, so every (re)start builds a fresh client from the factory.
 */
export class ServerSession {
  private client: LanguageClient | undefined;

  constructor(private readonly createClient: () => LanguageClient) {}

  /**
   * Starts a new client and resolves to whether its server is running. A failed start does not
   * reject: the client has already logged the cause to its output channel and shown a notification.
   */
  async start(): Promise<boolean> {
    const client = this.createClient();
    this.client = client;
    try {
      await client.start();
      return true;
    } catch {
      return false;
    }
  }

  async restart(): Promise<boolean> {
    await this.stop();
    return this.start();
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    // Only a running client has a server to shut down; stopping any other state throws.
    if (client?.isRunning()) {
      await client.dispose();
    }
  }
}
