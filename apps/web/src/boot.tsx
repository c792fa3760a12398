import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { captureReferral } from './lib/referral-link';

/** Renders the app into #root (loaded by main.tsx after the shell's first frame). */
export function mount(root: HTMLElement): void {
  // A referral link's code is remembered (and taken out of the address) before the router reads it.
  captureReferral();
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
