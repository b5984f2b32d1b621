import 'reflect-metadata';
import { ConfigError, loadConfig } from './config/app-config';
import { createApp } from './web/create-app';

async function bootstrap(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const app = await createApp(config);
  await app.listen(config.port);
  console.log(`Shop listening on ${config.baseUrl} (CP: ${config.baseUrl}/${config.cpTrigger}/)`);
}

void bootstrap();
