import { useEffect, useRef, useState } from 'react';

/** How near the viewport's bottom the sentinel counts as reached. */
const REACH_MARGIN_PX = 200;

/** Whether the element lies within the viewport or less than the margin under it, as laid out now. */
function nearViewport(el: HTMLElement): boolean {
  const box = el.getBoundingClientRect();
  return box.top < window.innerHeight + REACH_MARGIN_PX && box.bottom > 0;
}

/**
 * Calls `onReached` while the returned sentinel element is near the viewport and `enabled` (infinite scroll). The
 * observer's last answer can be stale when `enabled` turns on (the sentinel stood at the top while the list was
 * loading, and the rows just rendered pushed it down), so the sentinel's place is read again before calling.
 */
export function useBottomReached(onReached: () => void, enabled: boolean) {
  const ref = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new IntersectionObserver((entries) => setVisible(entries.some((e) => e.isIntersecting)), { rootMargin: `0px 0px ${REACH_MARGIN_PX}px 0px` });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  useEffect(() => {
    const el = ref.current;
    if (!visible || !enabled || !el) return;
    if (nearViewport(el)) onReached();
    else setVisible(false);
  }, [visible, enabled, onReached]);
  return ref;
}
