import { SetMetadata } from '@nestjs/common';

export const CP_PERMISSION = 'cpPermission';

/** The CP user must hold this permission (admins hold all), e.g. `@CpPermission('accessPlugin-bankpay')`. */
export const CpPermission = (permission: string) => SetMetadata(CP_PERMISSION, permission);
