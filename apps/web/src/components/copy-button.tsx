import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';

/** Writes text to the clipboard: the Clipboard API, else the old selection copy (plain-http hosts). */
export async function copyText(text: string): Promise<void> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return;
    }
  } catch {
    // fall through to the selection copy
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  try {
    if (!document.execCommand('copy')) throw new Error('copy refused');
  } finally {
    area.remove();
  }
}

export interface CopyButtonProps {
  value: string;
  /** The button's accessible name, e.g. 'Copy address'. */
  label: string;
  /** Toast after a copy; none when omitted. Never put a secret in it. */
  copiedMessage?: string;
  failedMessage: string;
  /** Toast duration (ms); the toaster's default otherwise. */
  duration?: number;
  /** Shows the label beside the icon. */
  showLabel?: boolean;
  className?: string;
}

/** A copy-to-clipboard button: an icon that turns into a check for a moment, plus an optional toast. */
export function CopyButton({
  value,
  label,
  copiedMessage,
  failedMessage,
  duration,
  showLabel,
  className,
}: CopyButtonProps) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    try {
      await copyText(value);
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), 1500);
      if (copiedMessage) toast.success(copiedMessage, { duration });
    } catch {
      toast.error(failedMessage, { duration });
    }
  };

  return (
    <button
      type="button"
      className={`copy-button ${showLabel ? 'btn-secondary' : 'icon-button'} ${className ?? ''}`.trim()}
      aria-label={showLabel ? undefined : label}
      title={label}
      onClick={() => void copy()}
    >
      {copied ? (
        <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true">
          <path
            d="M5 12.5l4.5 4.5L19 7.5"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
          />
        </svg>
      ) : (
        <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true">
          <rect x="9" y="9" width="11" height="11" rx="2" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="M5 15V5a1 1 0 011-1h10" fill="none" stroke="currentColor" strokeWidth="2" />
        </svg>
      )}
      {showLabel && <span>{copied ? 'Copied' : label}</span>}
    </button>
  );
}
