import { runConsoleCommand } from './console-command.js';
import { restoreCommand } from './restore-command.js';

// The entry of `npm run restore -- FILE` (package.json builds the server first).
runConsoleCommand(restoreCommand);
