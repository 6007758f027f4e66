import { ConfigError } from '../config.js';
import { seedCommand } from './seed-command.js';

// The entry of `npm run seed [-- --reset]` (package.json builds the server first).
seedCommand(process.argv.slice(2), process.env, {
  out: (text) => console.log(text),
  err: (text) => console.error(text),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exitCode = 1;
  },
);
