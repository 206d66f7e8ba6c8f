import type { ReactNode } from 'react';
import { IconExternalLink } from '@tabler/icons-react';

export type NavLink = { key: string; label: ReactNode; href: string; isExternal: boolean };

export function LinkItem({ link, className, onNavigate }: { link: NavLink; className: string; onNavigate?: () => void }) {
  if (link.isExternal) {
    return (
      <a href={link.href} target="_blank" rel="noopener noreferrer" className={className} onClick={onNavigate}>
        {link.label}
        <IconExternalLink size={14} aria-hidden />
      </a>
    );
  }
  return (
    <a href={link.href} className={className} onClick={onNavigate}>
      {link.label}
    </a>
  );
}
