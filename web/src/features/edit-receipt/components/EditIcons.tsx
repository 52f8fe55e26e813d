import type { SVGProps } from 'react';

const PATHS = {
  flag: 'M5 21V4M5 4h11l-2 4 2 4H5',
  rotate: 'M20 12a8 8 0 1 1-2.3-5.7M20 4v5h-5',
  grid: 'M4 4h16v16H4zM4 10h16M4 15h16M10 4v16',
  merge: 'M7 4v6a5 5 0 0 0 5 5h5M14 12l3 3-3 3M7 20v-4',
  history: 'M12 7v5l3 2M3.5 12a8.5 8.5 0 1 0 2.5-6M3 4v4h4',
  copy: 'M8 8h12v12H8zM4 16V4h12',
  help: 'M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20zM9.5 9a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6V14M12 17.5v.5',
  table: 'M3 5h18v14H3zM3 10h18M3 15h18M9 10v9M15 10v9',
  list: 'M8 6h13M8 12h13M8 18h13M3 6h.01M3 12h.01M3 18h.01',
  more: 'M12 5v.01M12 12v.01M12 19v.01',
  area: 'M4 8V4h4M16 4h4v4M20 16v4h-4M8 20H4v-4M9 9h6v6H9z',
  zoomIn: 'M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14zM20 20l-4-4M8 11h6M11 8v6',
  zoomOut: 'M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14zM20 20l-4-4M8 11h6',
} as const;

export type EditIconName = keyof typeof PATHS;

export function EditIcon({ name, size = 18, ...rest }: { name: EditIconName; size?: number } & SVGProps<SVGSVGElement>) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false" {...rest}>
      <path d={PATHS[name]} />
    </svg>
  );
}
