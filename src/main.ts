import 'reflect-metadata';
import { ConfigError, loadConfig } from './config/app-config';
import { createApp } from './web/create-app';

async function bootstrap(): Promise<void> {
  try {
    const config = loadConfig();
    const app = await createApp(config);
    await app.listen(config.port);
    console.log(`Shop listening on ${config.baseUrl} (CP: ${config.baseUrl}/${config.cpTrigger}/)`);
  } catch (error) {
    // A setting or a database the service cannot run with: one line saying so, not a stack trace.
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

void bootstrap();
