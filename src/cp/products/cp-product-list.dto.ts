import { IsIn, IsOptional } from 'class-validator';
import { CpConfirmationDto } from '../../common/cp-confirmation';
import { CpListQuery } from '../../common/cp-list.query';

/** `?q=&page=&sort=&archived=` of the product list. */
export class CpProductListQuery extends CpListQuery {
  /** `1`: the archived products instead. */
  @IsOptional()
  @IsIn(['', '1'])
  archived?: string;
}

export const BULK_ACTIONS = ['show', 'hide', 'remove'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** The list's selection (`ids`, one per ticked row) and what to do with it; the same on the confirmation page. */
export class CpProductBulkDto extends CpConfirmationDto {
  @IsOptional()
  ids?: string | string[];

  @IsIn(BULK_ACTIONS)
  action: BulkAction;
}

/** The selected ids that are ids; anything else in the list is not a product and is left out. */
export function selectedIds(ids: string | string[] | undefined): number[] {
  return [ids ?? []]
    .flat()
    .filter((id) => typeof id === 'string' && /^\d{1,10}$/.test(id))
    .map(Number);
}
