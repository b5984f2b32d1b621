import { IsString, MaxLength } from 'class-validator';

export class SetLanguageDto {
  @IsString()
  @MaxLength(8)
  language: string;
}
