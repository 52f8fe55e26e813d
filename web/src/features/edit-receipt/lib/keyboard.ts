/**
 * Keyboard use of the edit screen, shown in its help panel. Field navigation uses Tab / Shift+Tab as usual
 * plus Alt+↓ / Alt+↑; documents Alt+→ / Alt+←; actions with Alt and a letter so typing in a field never
 * triggers them. (Alt+F, which opens the browser's menu in Chromium on Windows and Linux, is the page's first:
 * the screen's handler prevents the default, so the menu stays closed.)
 */
export type ShortcutAction = 'nextField' | 'previousField' | 'nextDocument' | 'previousDocument' | 'confirm' | 'reject' | 'review' | 'flag' | 'help' | 'back' | 'saveNow';

export interface Shortcut {
  action: ShortcutAction;
  keys: string;
  description: string;
}

export const SHORTCUTS: Shortcut[] = [
  { action: 'nextField', keys: 'Tab or Alt+↓', description: 'Next field' },
  { action: 'previousField', keys: 'Shift+Tab or Alt+↑', description: 'Previous field' },
  { action: 'nextDocument', keys: 'Alt+→', description: 'Next document' },
  { action: 'previousDocument', keys: 'Alt+←', description: 'Previous document' },
  { action: 'saveNow', keys: 'Alt+S', description: 'Save now (fields also save 2 s after typing stops)' },
  { action: 'confirm', keys: 'Alt+Enter', description: 'Confirm (or Review and send)' },
  { action: 'review', keys: 'Alt+V', description: 'Review' },
  { action: 'reject', keys: 'Alt+R', description: 'Reject' },
  { action: 'flag', keys: 'Alt+F', description: 'Flag or unflag' },
  { action: 'help', keys: '?  or Alt+H', description: 'Show or hide this help' },
  { action: 'back', keys: 'Esc', description: 'Close a pop-up, leave grid editing' },
];

export interface KeyLike {
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  /** The physical key (KeyR), so Alt+letter works whatever the layout makes of it. */
  code?: string;
  /** Typing in an input or text area. */
  inField: boolean;
  /** A pop-up (a modal dialog) is open: the screen's shortcuts wait until it closes; it has its own keys. */
  inDialog?: boolean;
}

export function shortcutOf(e: KeyLike): ShortcutAction | null {
  if (e.ctrlKey || e.metaKey || e.inDialog) return null;
  if (e.altKey) {
    switch (e.key) {
      case 'ArrowDown':
        return 'nextField';
      case 'ArrowUp':
        return 'previousField';
      case 'ArrowRight':
        return 'nextDocument';
      case 'ArrowLeft':
        return 'previousDocument';
      case 'Enter':
        return 'confirm';
    }
    const letter = e.code?.startsWith('Key') ? e.code.slice(3).toLowerCase() : e.key.toLowerCase();
    switch (letter) {
      case 'r':
        return 'reject';
      case 'v':
        return 'review';
      case 'f':
        return 'flag';
      case 's':
        return 'saveNow';
      case 'h':
        return 'help';
    }
    return null;
  }
  if (!e.inField && e.key === '?') return 'help';
  if (e.key === 'Escape') return 'back';
  return null;
}
