import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { CarrierAConfigurationError } from './carrier-a.errors';

/** What a parcel number may hold to name its label file (the carrier's are 14 digits), and how long. */
const FILE_NAME_SAFE = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * The label PDFs in `DATA_DIR/labels`, one file per parcel named from its number. The number is the
 * carrier's answer, not ours: it is whitelisted before it names a file, and every path written, read or
 * deleted (stored ones too) must resolve to a file directly in the folder, so `../../x` or an absolute path
 * can neither write nor delete anything elsewhere.
 */
export class CarrierALabelFiles {
  private readonly folder: string;

  constructor(dataDir: string) {
    this.folder = resolve(dataDir, 'labels');
  }

  /** Where this parcel's label goes; a `CarrierAConfigurationError` when its number cannot name a file. */
  pathFor(parcelNumber: string): string {
    const path = join(this.folder, `carrier-a-${parcelNumber}.pdf`);
    if (!FILE_NAME_SAFE.test(parcelNumber) || !this.holds(path)) {
      const shown = JSON.stringify(parcelNumber.length > 40 ? `${parcelNumber.slice(0, 40)}…` : parcelNumber);
      throw new CarrierAConfigurationError(
        `Carrier A: the label was not stored: the carrier's parcel number ${shown} cannot name a file ` +
          '(only letters, digits, - and _, at most 32)',
      );
    }
    return path;
  }

  async write(path: string, pdf: Buffer): Promise<void> {
    if (!this.holds(path)) throw new Error(`${path} is not in the label folder`);
    await mkdir(this.folder, { recursive: true });
    await writeFile(path, pdf);
  }

  /** A stored label's bytes; null when the file is gone or the path leads out of the folder. */
  async read(path: string): Promise<Buffer | null> {
    return this.holds(path) ? readFile(path).catch(() => null) : null;
  }

  /** Deletes a stored label; false, touching nothing, when the path leads out of the folder. */
  async remove(path: string): Promise<boolean> {
    if (!this.holds(path)) return false;
    await rm(path, { force: true });
    return true;
  }

  private holds(path: string): boolean {
    return dirname(resolve(path)) === this.folder;
  }
}
