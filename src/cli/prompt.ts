import { createInterface } from 'node:readline/promises';

/** Whether the command may ask: a person at a terminal, not a script or a pipe. */
export const canAsk = (): boolean => Boolean(process.stdin.isTTY && process.stderr.isTTY);

/**
 * Asks on the terminal (on stderr: stdout keeps the command's one JSON line); an empty answer takes `fallback`.
 * A hidden answer (a password) is not echoed.
 */
export async function ask(question: string, options: { fallback?: string; hidden?: boolean } = {}): Promise<string> {
  const { fallback, hidden } = options;
  const prompt = fallback ? `${question} [${fallback}]: ` : `${question}: `;
  const terminal = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  if (hidden) {
    // Readline echoes through _writeToOutput: after the prompt itself, write nothing of what is typed.
    const echo = terminal as unknown as { _writeToOutput(text: string): void };
    const write = echo._writeToOutput.bind(terminal);
    echo._writeToOutput = (text: string) => write(text.startsWith(prompt) ? prompt : text.includes('\n') ? '\n' : '');
  }
  try {
    const answer = (await terminal.question(prompt)).trim();
    return answer || fallback || '';
  } finally {
    terminal.close();
  }
}
