import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { loadTokenPage } from './app/routes';
import { captureReferral } from './lib/referral-link';

/** Renders the app into #root (loaded by main.tsx after the shell's first frame). */
export async function mount(root: HTMLElement): Promise<void> {
  // A referral link's code is remembered (and taken out of the address) before the router reads it.
  captureReferral();
  // A token page arrives with its first screen as static markup and its first read inlined
  // (docs/web-delivery.md): React's first render replaces that markup, so it waits for the route's
  // chunk (preloaded by the HTML) and renders the page itself, never a skeleton in between.
  if (root.querySelector('[data-shell="token"]')) await loadTokenPage().catch(() => undefined);
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
