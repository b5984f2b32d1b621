import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

/** Whether the command may ask: a person at a terminal, not a script or a pipe. */
export const canAsk = (): boolean => Boolean(process.stdin.isTTY && process.stderr.isTTY);

/**
 * Asks on the terminal (on stderr: stdout keeps the command's one JSON line); an empty answer takes `fallback`.
 * A hidden answer (a password) is not echoed: once the question is out, nothing typed reaches the terminal.
 */
export function ask(question: string, options: { fallback?: string; hidden?: boolean } = {}): Promise<string> {
  const { fallback, hidden } = options;
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const terminal = createInterface({ input: process.stdin, output, terminal: true });
  return new Promise((resolve) => {
    terminal.question(fallback ? `${question} [${fallback}]: ` : `${question}: `, (answer) => {
      terminal.close();
      if (hidden) process.stderr.write('\n');
      resolve(answer.trim() || fallback || '');
    });
    muted = Boolean(hidden);
  });
}
