// `npm start`: builds the web app and the server, then becomes the server. The server runs in
// this very process (package.json `exec`s it), so a SIGTERM or Ctrl-C that npm passes on reaches
// the server itself, which finishes its requests and exits; nothing is left listening on the port.
// SKIP_BUILD=1 starts what was built last (the start-up test uses it; so can a restart).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// Checked before anything loads: on Node 20 better-sqlite3 13 ends the process with a segmentation
// fault, which says nothing of why.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  console.error(
    `Cloud Classroom needs Node.js 22.13 or later (24 recommended); this is Node.js ${process.versions.node}.\n` +
      'Node 24 from the npm registry: npm install --prefix ~/.local/node-24 node@24.21.0, then put ~/.local/node-24/node_modules/.bin first on PATH.',
  );
  process.exit(1);
}

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** `npm run build`, in a process group of its own so that a signal stops all of it. */
function build() {
  const npmCli = process.env.npm_execpath;
  const [command, args] = npmCli ? [process.execPath, [npmCli, 'run', 'build']] : ['npm', ['run', 'build']];
  const posix = process.platform !== 'win32';
  const child = spawn(command, args, { cwd: root, stdio: 'inherit', detached: posix, shell: !npmCli && !posix });
  const stop = (signal) => {
    try {
      if (posix) process.kill(-child.pid, signal);
      else child.kill(signal);
    } catch {
      // Already gone.
    }
  };
  for (const signal of SIGNALS) process.on(signal, stop);
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      for (const name of SIGNALS) process.off(name, stop);
      resolve({ code: code ?? 1, signal });
    });
  });
}

if (process.env.SKIP_BUILD !== '1') {
  const { code, signal } = await build();
  if (signal !== null) process.exit(1);
  if (code !== 0) {
    console.error(`The build failed (exit code ${code}); the server was not started.`);
    process.exit(code);
  }
}
await import(pathToFileURL(path.join(root, 'apps/server/dist/server.js')).href);
