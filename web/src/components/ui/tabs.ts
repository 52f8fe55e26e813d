import { useId, useRef, type KeyboardEvent } from 'react';

/**
 * The tab to select after `key` on the `at`th of `count` tabs: ArrowRight / ArrowLeft the next / previous one (round
 * the ends), Home / End the first / last; null for other keys.
 */
export function tabStep(count: number, at: number, key: string): number | null {
  if (count <= 0) return null;
  switch (key) {
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    case 'ArrowRight':
      return (at + 1) % count;
    case 'ArrowLeft':
      return (at - 1 + count) % count;
  }
  return null;
}

/**
 * A row of tabs and the one panel they show (the edit screen's Item Details / Advanced, the export pop-up's
 * formats), as screen readers expect them: the selected tab alone is in the Tab order, arrows, Home and End select
 * and focus another (selection follows the focus: every panel here is already on the page), and the panel is
 * labelled by its tab.
 *
 * Spread `listProps` on the tablist (with its aria-label), `tabProps(t)` on each tab and `panelProps` on the element
 * holding what the selected tab shows.
 */
export function useTabs<T extends string>(tabs: readonly T[], selected: T, onSelect: (tab: T) => void, disabled = false) {
  const base = useId();
  const listRef = useRef<HTMLDivElement>(null);
  const tabId = (t: T) => `${base}-tab-${t}`;
  const panelId = `${base}-panel`;

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (disabled) return;
    const next = tabStep(tabs.length, tabs.indexOf(selected), e.key);
    if (next === null) return;
    e.preventDefault();
    const tab = tabs[next]!;
    onSelect(tab);
    listRef.current?.querySelector<HTMLElement>(`#${CSS.escape(tabId(tab))}`)?.focus();
  };

  return {
    listProps: { role: 'tablist' as const, ref: listRef, onKeyDown },
    tabProps: (t: T) => ({
      id: tabId(t),
      role: 'tab' as const,
      type: 'button' as const,
      'aria-selected': t === selected,
      'aria-controls': panelId,
      tabIndex: t === selected ? 0 : -1,
      onClick: () => onSelect(t),
      disabled,
    }),
    panelProps: { id: panelId, role: 'tabpanel' as const, 'aria-labelledby': tabId(selected) },
  };
}
