import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Command, CommandRunner } from 'nest-commander';
import { AppError } from '../../common/errors/app-error';
import { ProductImportRow, ProductImportService } from '../../commerce/products/product-import.service';
import { CurrencyService } from '../../commerce/stores/currency.service';
import { StoreService } from '../../commerce/stores/store.service';
import { translations } from '../../web/i18n/translations';
import { checkImportRows, RowError } from './import-rows';

/** Rows per transaction: large enough to amortise the lookups, small enough to keep SQLite's lock short. */
const BATCH = 500;
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
  constructor(
    private readonly importer: ProductImportService,
    private readonly stores: StoreService,
    private readonly currencies: CurrencyService,
  ) {
    super();
  }

  async run([file]: string[]): Promise<void> {
    const rows = await readImportFile(file);
    const store = await this.stores.default();
    const decimals = (await this.currencies.base()).decimals;
    const { valid, errors } = checkImportRows(rows, decimals, translations().languages);
    const progress = new Progress(valid.length * 2);
    const imported: ProductImportRow[] = [];
    const imageErrors: ImageError[] = [];
    let created = 0;
    let updated = 0;
    for (let start = 0; start < valid.length; start += BATCH) {
      const batch = valid.slice(start, start + BATCH);
      const summary = await this.importer.importBatch(
        store.id,
        batch.map(({ row }) => row),
        { decimals, relations: false, imageFolder: dirname(resolve(file)) },
      );
      created += summary.created;
      updated += summary.updated;
      const rejected = new Set(summary.rejected.map((rejection) => rejection.index));
      for (const rejection of summary.rejected) {
        errors.push({ line: batch[rejection.index].line, sku: rejection.sku, message: rejection.message });
      }
      for (const { index, sku, image, message } of summary.rejectedImages) {
        imageErrors.push({ line: batch[index].line, sku, image, message });
      }
      imported.push(...batch.filter((_, index) => !rejected.has(index)).map(({ row }) => row));
      progress.advance(batch.length);
    }
    for (let start = 0; start < imported.length; start += BATCH) {
      await this.importer.importRelations(imported.slice(start, start + BATCH));
      progress.advance(Math.min(BATCH, imported.length - start));
    }
    progress.done();
    errors.sort((a, b) => a.line - b.line);
    // The CLI's one JSON line on stdout (src/cli/output.ts), written here because shop areas do not import the CLI.
    process.stdout.write(
      `${JSON.stringify({
        ok: true,
        created,
        updated,
        rejected: errors.length,
        errors: errors.slice(0, MAX_REPORTED_ERRORS) satisfies RowError[],
        rejectedImages: imageErrors.length,
        imageErrors: imageErrors.slice(0, MAX_REPORTED_ERRORS),
      })}\n`,
    );
  }
}

/** A picture left out of an imported row: the row is in, without it. */
interface ImageError extends RowError {
  image: string;
}

async function readImportFile(file: string): Promise<unknown[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw AppError.invalid({ file: ['cannot be read'] }, `Cannot read ${file}: ${(error as Error).message}`);
  }
  let rows: unknown;
  try {
    rows = JSON.parse(text);
  } catch (error) {
    throw AppError.invalid({ file: ['is not valid JSON'] }, `${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(rows))
    throw AppError.invalid({ file: ['must be a JSON array'] }, `${file} must hold a JSON array of products`);
  return rows;
}

/** A plain progress bar on stderr, only for a person watching a terminal; stdout keeps the one JSON line. */
class Progress {
  private readonly visible = Boolean(process.stderr.isTTY);
  private current = 0;

  constructor(private readonly total: number) {}

  advance(steps: number): void {
    this.current = Math.min(this.total, this.current + steps);
    if (!this.visible || this.total === 0) return;
    const width = 30;
    const filled = Math.round((this.current / this.total) * width);
    const percent = Math.floor((this.current / this.total) * 100);
    process.stderr.write(`\rImporting [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${percent}%`);
  }

  done(): void {
    if (this.visible && this.total > 0) process.stderr.write('\n');
  }
}
