import { runConsoleCommand } from './console-command.js';
import { resetPasswordCommand } from './reset-password-command.js';

// The entry of `npm run reset-password -- <username>` (package.json builds the server first).
runConsoleCommand(resetPasswordCommand);
