import { IsOptional, IsString, MaxLength } from 'class-validator';

const MAX_PAGE = 1_000_000;

/** A CP list's order: one of the list's sort keys and a direction. */
export interface ListSort<Key extends string> {
  key: Key;
  direction: 'ASC' | 'DESC';
}

/** `?q=&page=&sort=` of every CP list page. */
export class CpListQuery {
  @IsOptional()
  @IsString()
  @MaxLength(100)
  q?: string;

  @IsOptional()
  @IsString()
  page?: string;

  /** `name` ascending, `-name` descending (views/partials/cp-sort-header.hbs makes the links). */
  @IsOptional()
  @IsString()
  @MaxLength(40)
  sort?: string;

  /**
   * Page 1 for anything that is not a positive integer: a hand-edited URL still shows a list. At most page
   * 1,000,000, so the offset stays a number both databases take (a page past the end is an empty list).
   */
  get pageNumber(): number {
    return Math.min(MAX_PAGE, Math.max(1, Number.parseInt(this.page ?? '1', 10) || 1));
  }

  /** The order `?sort=` asks for when it names one of `keys`; `fallback` otherwise (a hand-edited URL still lists). */
  sortBy<Key extends string>(keys: readonly Key[], fallback: ListSort<Key>): ListSort<Key> {
    const descending = this.sort?.startsWith('-') ?? false;
    const key = (descending ? this.sort!.slice(1) : this.sort) as Key;
    return keys.includes(key) ? { key, direction: descending ? 'DESC' : 'ASC' } : fallback;
  }
}
