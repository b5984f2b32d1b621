import { IsOptional, IsString, MaxLength } from 'class-validator';

/** `?q=&page=` of every CP list page. */
export class CpListQuery {
  @IsOptional()
  @IsString()
  @MaxLength(100)
  q?: string;

  @IsOptional()
  @IsString()
  page?: string;

  /** Page 1 for anything that is not a positive integer: a hand-edited URL still shows a list. */
  get pageNumber(): number {
    return Math.max(1, Number.parseInt(this.page ?? '1', 10) || 1);
  }
}
