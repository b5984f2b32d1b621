import { IsIn } from 'class-validator';

export class CookieConsentDto {
  @IsIn(['accept', 'decline'], { message: 'must be accept or decline' })
  choice: 'accept' | 'decline';
}
