import type { TestProject } from 'vitest/node';
import { startServer } from './server-process.js';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startServer();
  project.provide('baseUrl', server.baseUrl);
  return async () => {
    const code = await server.stop();
    // A clean exit on SIGTERM is part of the contract (graceful shutdown), so it fails the run.
    if (code !== 0) throw new Error(`the server exited with ${code} on SIGTERM:\n${server.output()}`);
  };
}
