import { styleText } from 'node:util';

/**
 * Lines in a frame, for the few things a person at the console must not miss (a password shown
 * once). Long lines are not wrapped: callers keep them short.
 */
export function consoleBox(lines: readonly string[]): string {
  const width = Math.max(...lines.map((line) => line.length));
  const rule = '─'.repeat(width + 2);
  return [`┌${rule}┐`, ...lines.map((line) => `│ ${line.padEnd(width)} │`), `└${rule}┘`].join('\n');
}

/** Bold on a terminal that takes colours; plain in a log file or a pipe. */
export function emphasis(text: string, stream: NodeJS.WriteStream = process.stdout): string {
  return stream.isTTY === true && process.env.NO_COLOR === undefined ? styleText('bold', text) : text;
}

/** "a, b and c" */
export function listOf(words: readonly string[]): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}
