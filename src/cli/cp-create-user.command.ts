import { Command, CommandRunner, Option } from 'nest-commander';
import { CORE_CP_PERMISSIONS } from '../common/cp-permissions';
import { CpUsersService } from '../commerce/staff/cp-users.service';
import { printResult } from './output';

interface Options {
  password: string;
  admin?: boolean;
  name?: string;
  permission?: string[];
}

@Command({ name: 'cp:create-user', arguments: '<email>', description: 'Create a control-panel user' })
export class CpCreateUserCommand extends CommandRunner {
  constructor(private readonly users: CpUsersService) {
    super();
  }

  async run([email]: string[], options: Options): Promise<void> {
    if (!options.password) throw new Error('--password is required');
    const user = await this.users.create({
      email,
      password: options.password,
      name: options.name,
      admin: options.admin ?? false,
      permissions: options.permission ?? [],
    });
    printResult({
      created: 'cp_user',
      id: user.id,
      email: user.email,
      admin: user.admin,
      permissions: user.permissions,
    });
  }

  @Option({ flags: '--password <password>', description: 'at least 10 characters' })
  parsePassword(value: string): string {
    return value;
  }

  @Option({ flags: '--admin', description: 'grant every permission' })
  parseAdmin(): boolean {
    return true;
  }

  @Option({ flags: '--name <name>' })
  parseName(value: string): string {
    return value;
  }

  @Option({
    flags: '--permission <permission>',
    description: `repeatable: ${CORE_CP_PERMISSIONS.join(', ')} or accessPlugin-<handle>`,
  })
  parsePermission(value: string, previous: string[] = []): string[] {
    return [...previous, value];
  }
}
