import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { CpConfirmationDto } from '../../common/cp-confirmation';

/** The CP flow form as posted; FlowsService checks the name and the actions JSON and names every problem. */
export class FlowFormDto {
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(100_000)
  actions?: string;

  /** A checkbox on the "new flow" form: present when ticked. */
  @IsOptional()
  @IsString()
  enabled?: string;
}

/** Disabling asks "I am sure"; enabling does not. */
export class FlowToggleDto extends CpConfirmationDto {
  @IsIn(['true', 'false'])
  enabled: 'true' | 'false';
}
