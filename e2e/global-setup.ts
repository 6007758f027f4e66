import crypto from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { startServer } from './server-process.js';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** The password of every seeded account (admin, teacher, learner1..3) in this run. */
    accountPassword: string;
    /**
     * An admin session for journeys that only read: the server allows 30 logins a minute per
     * address, and a suite that logs in afresh for each of them runs into it.
     */
    adminToken: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // A fresh password per run, so nothing in the journeys depends on a value known in advance;
  // the captcha is off so the login form hides its code field and journeys can sign in.
  const accountPassword = `e2e-${crypto.randomBytes(12).toString('base64url')}`;
  // STORAGE_SECRET_KEY: the cloud storage journey saves a bucket's secret key.
  const server = await startServer({ ADMIN_PASSWORD: accountPassword, CAPTCHA_ENABLED: 'false', STORAGE_SECRET_KEY: 'e2e-storage-secret-key-0000' });
  project.provide('baseUrl', server.baseUrl);
  project.provide('accountPassword', accountPassword);
  const login = await fetch(`${server.baseUrl}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: accountPassword }),
  });
  if (!login.ok) throw new Error(`the admin login answered ${login.status}: ${await login.text()}`);
  project.provide('adminToken', ((await login.json()) as { token: string }).token);
  return async () => {
    const code = await server.stop();
    // A clean exit on SIGTERM is part of the contract (graceful shutdown), so it fails the run.
    if (code !== 0) throw new Error(`the server exited with ${code} on SIGTERM:\n${server.output()}`);
  };
}
