import { runConsoleCommand } from './console-command.js';
import { seedCommand } from './seed-command.js';

// The entry of `npm run seed [-- --reset]` (package.json builds the server first).
runConsoleCommand(seedCommand);
