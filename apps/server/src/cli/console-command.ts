import { ConfigError } from '../config.js';

export type ConsoleOutput = { out: (text: string) => void; err: (text: string) => void };

/** A console command: takes its arguments and environment, answers the process's exit code. */
export type ConsoleCommand = (args: readonly string[], env: NodeJS.ProcessEnv, output: ConsoleOutput) => Promise<number>;

/** Runs a console command as the process: its code becomes the exit code; a bad setting is one line, not a trace. */
export function runConsoleCommand(command: ConsoleCommand): void {
  command(process.argv.slice(2), process.env, {
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
}
