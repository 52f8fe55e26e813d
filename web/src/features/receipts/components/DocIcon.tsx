import type { SVGProps } from 'react';

/** Icons of the document screens that the shared set does not have (same 24 px stroke style). */
const PATHS = {
  flag: 'M5 21V4M5 4h11l-2 4 2 4H5',
  search: 'M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14zM20 20l-4-4',
  tools: 'M5 12h.01M12 12h.01M19 12h.01',
  retry: 'M4 12a8 8 0 0 1 14-5.3L20 9M20 4v5h-5M20 12a8 8 0 0 1-14 5.3L4 15M4 20v-5h5',
  file: 'M6 2h8l5 5v15H6zM14 2v5h5',
  image: 'M4 5h16v14H4zM4 16l5-5 4 4 3-3 4 4M15 9.5a1 1 0 1 0 0-.01',
  calendar: 'M4 6h16v15H4zM4 10h16M8 3v4M16 3v4',
  copy: 'M8 8h12v12H8zM4 16V4h12',
  cloud: 'M7 18a5 5 0 0 1-.6-9.96A6 6 0 0 1 18 9a4.5 4.5 0 0 1-.5 9zM12 15V9M9.5 11.5 12 9l2.5 2.5',
  grip: 'M9 6h.01M15 6h.01M9 12h.01M15 12h.01M9 18h.01M15 18h.01',
  pencil: 'M4 20h4L19 9l-4-4L4 16zM14 6l4 4',
} as const;

export type DocIconName = keyof typeof PATHS;

export function DocIcon({ name, size = 20, ...rest }: { name: DocIconName; size?: number } & SVGProps<SVGSVGElement>) {
  const round = name === 'tools' || name === 'grip';
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={round ? 3.2 : 1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...rest}
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
