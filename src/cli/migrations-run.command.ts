import { Command, CommandRunner } from 'nest-commander';
import { DataSource } from 'typeorm';
import { printResult } from './output';

/** Migrations already run when the CLI connects (as at every start-up); this reports where the schema is. */
@Command({ name: 'migrations:run', description: 'Apply pending database migrations' })
export class MigrationsRunCommand extends CommandRunner {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async run(): Promise<void> {
    const pending = await this.dataSource.showMigrations();
    const applied = await this.dataSource.query('SELECT name FROM migrations ORDER BY id');
    printResult({ migrations: 'up-to-date', pending, applied: applied.map((row: { name: string }) => row.name) });
  }
}
