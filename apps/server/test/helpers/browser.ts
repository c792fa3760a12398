import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's Chromium, headless; nothing downloads a browser (CHROMIUM_PATH overrides for other
 * machines). The e2e specs launch theirs here too (e2e/support/browser.ts); `args` adds flags.
 */
export function launchChromium(args: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
      ...args,
    ],
  });
}
