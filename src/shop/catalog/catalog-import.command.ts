import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Command, CommandRunner } from 'nest-commander';
import { AppError } from '../../common/errors/app-error';
import { CatalogTransfer } from '../../commerce/products/catalog-transfer.service';
import { parseCatalogFile } from '../../commerce/products/import-rows';
import { translations } from '../../web/i18n/translations';

/** The summary lists the first errors only; `rejected` still counts them all. */
const MAX_REPORTED_ERRORS = 100;

/**
 * `npm run cli -- catalog:import FILE.json` (format in docs/demo-catalog.md): creates or updates the default store's products
 * by SKU. Bad rows are reported by line and skipped; relation lists are written once every product is in,
 * so they may name products further down the file.
 */
@Command({
  name: 'catalog:import',
  arguments: '<file>',
  description: 'Create or update products from a JSON array (idempotent by SKU)',
})
export class CatalogImportCommand extends CommandRunner {
  constructor(private readonly transfer: CatalogTransfer) {
    super();
  }

  async run([file]: string[]): Promise<void> {
    const rows = await readImportFile(file);
    const progress = new Progress();
    const { created, updated, rejected, rejectedImages } = await this.transfer.importRows(
      rows,
      translations().languages,
      'cli',
      { imageFolder: dirname(resolve(file)), progress: (done, total) => progress.show(done, total) },
    );
    progress.done();
    // The CLI's one JSON line on stdout (src/cli/output.ts), written here because shop areas do not import the CLI.
    process.stdout.write(
      `${JSON.stringify({
        ok: true,
        created,
        updated,
        rejected: rejected.length,
        errors: rejected.slice(0, MAX_REPORTED_ERRORS),
        rejectedImages: rejectedImages.length,
        imageErrors: rejectedImages.slice(0, MAX_REPORTED_ERRORS),
      })}\n`,
    );
  }
}

async function readImportFile(file: string): Promise<unknown[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw AppError.invalid({ file: ['cannot be read'] }, `Cannot read ${file}: ${(error as Error).message}`);
  }
  return parseCatalogFile(text, file);
}

/** A plain progress bar on stderr, only for a person watching a terminal; stdout keeps the one JSON line. */
class Progress {
  private readonly visible = Boolean(process.stderr.isTTY);
  private shown = false;

  show(done: number, total: number): void {
    if (!this.visible || total === 0) return;
    this.shown = true;
    const width = 30;
    const filled = Math.round((done / total) * width);
    const percent = Math.floor((done / total) * 100);
    process.stderr.write(`\rImporting [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${percent}%`);
  }

  done(): void {
    if (this.shown) process.stderr.write('\n');
  }
}
