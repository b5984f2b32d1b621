/** The Chromium binary the browser tests launch (CHROMIUM_PATH, else a system one), or null when there is none. */
export function findChromium(env?: NodeJS.ProcessEnv): string | null;
/** What to do when no Chromium can be found or installed. */
export function missingChromiumMessage(env?: NodeJS.ProcessEnv): string;
