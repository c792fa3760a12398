import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';

/** Renders the app into #root (loaded by main.tsx after the shell's first frame). */
export function mount(root: HTMLElement): void {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
