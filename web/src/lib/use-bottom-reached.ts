import { useEffect, useRef, useState } from 'react';

/** Calls `onReached` while the returned sentinel element is near the viewport and `enabled` (infinite scroll). */
export function useBottomReached(onReached: () => void, enabled: boolean) {
  const ref = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new IntersectionObserver((entries) => setVisible(entries.some((e) => e.isIntersecting)), { rootMargin: '0px 0px 200px 0px' });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  useEffect(() => {
    if (visible && enabled) onReached();
  }, [visible, enabled, onReached]);
  return ref;
}
