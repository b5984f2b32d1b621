/** Every command prints exactly one JSON line saying what it did (docs/http-contract.md). */
export function printResult(result: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ ok: true, ...result })}\n`);
}
