import { fileURLToPath } from 'node:url';

// Tests and the Vite dev build read the shared package from source, so no build step
// sits between editing a schema and seeing both sides use it.
export const sharedSourceAlias = [
  {
    find: /^@cloud-classroom\/shared\/(.*)$/,
    replacement: fileURLToPath(new URL('./packages/shared/src/$1.ts', import.meta.url)),
  },
];
