import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { AddressGuard } from '../../common/outbound-address';
import { exchange, OutboundError } from '../../common/outbound-http';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { imageErrors, MAX_IMAGE_BYTES, ProductImageFiles, StoredImage } from './product-image-files';
import { ImportedImage, ProductImages } from './product-images.service';

/** A picture of an import row that was left out; the rest of the row is imported. */
export interface ImageRejection {
  index: number;
  sku: string;
  /** The entry as the file gave it (a `data:` URL shortened). */
  image: string;
  message: string;
}

/** What a batch's `images` lists came to: site paths kept as they are, pictures stored, pictures refused. */
export interface ResolvedImages {
  /** By row index: the entries that are paths on this site (`/public/…`), shown as they are. */
  sitePaths: Map<number, string[]>;
  /** By row index: the pictures stored, in the row's order. */
  stored: Map<number, ImportedImage[]>;
  rejected: ImageRejection[];
}

/** The longest `sourceUrl` remembered; a longer URL is fetched again on each import (its files still are not rewritten). */
const MAX_REMEMBERED_URL = 191;

/**
 * The pictures a catalog import names, fetched or read once and stored like uploads (product-image-files.ts):
 * an `http(s)` URL (through the outbound guard, so never an address inside the shop's network; one fetched
 * before is not fetched again), a file (`file:` or a plain path, inside the import file's folder), or a
 * `data:` URL. An entry starting with `/` is a path on this site (the demo's `/public/images/…`) and stays one.
 */
@Injectable()
export class ImportImageSources {
  private readonly guard: AddressGuard;

  constructor(
    private readonly files: ProductImageFiles,
    private readonly images: ProductImages,
    @InjectConfig() private readonly config: AppConfig,
  ) {
    this.guard = AddressGuard.forSandboxes(config.sandboxes);
  }

  /** `folder`: where relative file paths are read from; without one, file paths are refused. */
  async resolve(rows: Array<{ sku: string; images?: string[] }>, folder: string | null): Promise<ResolvedImages> {
    const result: ResolvedImages = { sitePaths: new Map(), stored: new Map(), rejected: [] };
    const remote = rows.flatMap((row) => (row.images ?? []).filter(isWebUrl));
    const known = await this.images.knownSources(remote.filter((url) => url.length <= MAX_REMEMBERED_URL));
    // One fetch or read per distinct entry in the batch, however many rows name it.
    const pending = new Map<string, Promise<ImportedImage>>();
    for (const [index, row] of rows.entries()) {
      if (!row.images) continue;
      const sitePaths: string[] = [];
      const stored: ImportedImage[] = [];
      for (const entry of row.images) {
        if (isSitePath(entry)) {
          sitePaths.push(entry);
          continue;
        }
        if (!pending.has(entry)) pending.set(entry, this.store(entry, folder, known));
        try {
          stored.push(await pending.get(entry)!);
        } catch (error) {
          result.rejected.push({ index, sku: row.sku, image: shown(entry), message: reason(error) });
        }
      }
      result.sitePaths.set(index, sitePaths);
      result.stored.set(index, stored);
    }
    return result;
  }

  private async store(entry: string, folder: string | null, known: Map<string, StoredImage>): Promise<ImportedImage> {
    if (isWebUrl(entry)) {
      const sourceUrl = entry.length <= MAX_REMEMBERED_URL ? entry : null;
      const remembered = sourceUrl ? known.get(sourceUrl) : undefined;
      if (remembered) return { ...remembered, sourceUrl };
      return { ...(await this.files.store(await this.fetch(entry), shown(entry))), sourceUrl };
    }
    const bytes = entry.startsWith('data:') ? dataUrlBytes(entry) : await readLocal(entry, folder);
    return { ...(await this.files.store(bytes, shown(entry))), sourceUrl: null };
  }

  private async fetch(url: string): Promise<Buffer> {
    const answer = await exchange(url, {
      timeoutMs: this.config.outboundTimeoutMs,
      guard: this.guard,
      maxBytes: MAX_IMAGE_BYTES,
      headers: { accept: 'image/jpeg, image/png, image/webp, image/gif' },
    });
    if (answer.status !== 200) throw new ImportImageError(`could not be fetched: the server answered ${answer.status}`);
    return answer.body;
  }
}

/** Why an entry was not stored, said the same way whatever refused it. */
class ImportImageError extends Error {}

function isWebUrl(entry: string): boolean {
  return /^https?:\/\//i.test(entry);
}

/** `/public/…`: one slash, then neither a slash nor a backslash (browsers read `//host` and `/\host` as another site). */
function isSitePath(entry: string): boolean {
  return /^\/[^/\\]/.test(entry) && !entry.includes('\\');
}

function dataUrlBytes(entry: string): Buffer {
  const match = /^data:[^,;]*(;base64)?,(.*)$/s.exec(entry);
  if (!match) throw new ImportImageError('is not a valid data: URL');
  if (match[1]) return Buffer.from(match[2], 'base64');
  try {
    return Buffer.from(decodeURIComponent(match[2]), 'latin1');
  } catch {
    throw new ImportImageError('is not a valid data: URL'); // a stray `%`, which would fail the whole import
  }
}

/** Said of every file entry that is not a readable file inside the folder, so no answer tells what exists outside it. */
const NOT_INSIDE = "must be a file inside the import's folder";

/**
 * `file:///abs/path`, `file:relative/path` or `relative/path`, which must resolve (links followed) to a regular file
 * inside the import file's folder. Without a folder (the CP's upload) no file is read at all.
 */
async function readLocal(entry: string, folder: string | null): Promise<Buffer> {
  if (folder === null) throw new ImportImageError('is a file path, read only by catalog:import');
  let path: string;
  try {
    const inside = await realpath(folder);
    path = await realpath(
      resolve(folder, entry.startsWith('file://') ? fileURLToPath(entry) : entry.replace(/^file:/, '')),
    );
    if (!path.startsWith(inside + sep)) throw new ImportImageError(NOT_INSIDE);
  } catch {
    // A missing file, a path outside, a `file://host/…` URL: all the same answer.
    throw new ImportImageError(NOT_INSIDE);
  }
  // Non-blocking, so a FIFO does not hang the open; not following a link swapped in since realpath.
  const file = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW).catch(() => {
    throw new ImportImageError(NOT_INSIDE);
  });
  try {
    const info = await file.stat();
    if (!info.isFile()) throw new ImportImageError(NOT_INSIDE);
    // One byte more than allowed tells a too-large file apart, whatever size it claims (or grows to).
    const bytes = Buffer.alloc(Math.min(info.size, MAX_IMAGE_BYTES) + 1);
    let length = 0;
    while (length < bytes.length) {
      const { bytesRead } = await file.read(bytes, length, bytes.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > MAX_IMAGE_BYTES) throw imageErrors.tooLarge(entry);
    return bytes.subarray(0, length);
  } finally {
    await file.close();
  }
}

function shown(entry: string): string {
  return entry.startsWith('data:') ? `${entry.slice(0, 30)}…` : entry;
}

function reason(error: unknown): string {
  if (error instanceof OutboundError) return `could not be fetched: ${error.message}`;
  if (error instanceof ImportImageError || error instanceof AppError) return error.message;
  throw error;
}
