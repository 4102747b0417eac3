import type { AuthenticationType } from '@eelarve/shared';
import type { ReactNode } from 'react';

/** Inline icons (no icon font, no network). All are decorative: callers give the accessible name. */

/** The frame of an inline icon: a `size` px square drawing a `box` by `box` view box, hidden from assistive technology. */
export function Icon({ size, box = size, className, children }: { size: number; box?: number; className?: string; children: ReactNode }) {
  return (
    <svg width={size} height={size} viewBox={`0 0 ${box} ${box}`} className={className} aria-hidden="true" focusable="false">
      {children}
    </svg>
  );
}

/** A stroked (unfilled) path of an icon, `width` thick in `color`; `cap` and `join` round its ends and corners. */
export function Stroke({
  d,
  width,
  cap = false,
  join = false,
  color = 'currentColor',
}: {
  d: string;
  width: number;
  cap?: boolean;
  join?: boolean;
  color?: string;
}) {
  return <path d={d} stroke={color} strokeWidth={width} strokeLinecap={cap ? 'round' : undefined} strokeLinejoin={join ? 'round' : undefined} fill="none" />;
}

export function MenuIcon() {
  return (
    <Icon size={20}>
      <path d="M3 5h14M3 10h14M3 15h14" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
    </Icon>
  );
}

export function MoreIcon() {
  return (
    <Icon size={18}>
      <circle cx="9" cy="3.5" r="1.6" fill="currentColor" />
      <circle cx="9" cy="9" r="1.6" fill="currentColor" />
      <circle cx="9" cy="14.5" r="1.6" fill="currentColor" />
    </Icon>
  );
}

export function SearchIcon() {
  return (
    <Icon size={16}>
      <circle cx="7" cy="7" r="4.5" stroke="currentColor" strokeWidth="1.6" fill="none" />
      <path d="M10.5 10.5L14 14" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
    </Icon>
  );
}

export function PlusIcon() {
  return (
    <Icon size={14}>
      <path d="M7 2v10M2 7h10" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
    </Icon>
  );
}

/** A check mark (a checked box, a confirmed row). */
export function CheckIcon() {
  return (
    <Icon size={12}>
      <Stroke d="M2.5 6.2l2.3 2.3 4.7-5" width={1.8} cap join />
    </Icon>
  );
}

/** The chevron of a closed dropdown. */
export function ChevronDownIcon({ className }: { className?: string }) {
  return (
    <Icon size={14} className={className}>
      <Stroke d="M3.5 5.5L7 9l3.5-3.5" width={1.6} cap join />
    </Icon>
  );
}

export function LogoMark({ size = 32 }: { size?: number }) {
  return (
    <Icon size={size} box={32}>
      <rect width="32" height="32" rx="7" fill="var(--color-brand)" />
      <rect x="7" y="17" width="4" height="8" rx="1" fill="#fff" />
      <rect x="14" y="12" width="4" height="13" rx="1" fill="#fff" />
      <rect x="21" y="7" width="4" height="18" rx="1" fill="var(--color-brand-accent)" />
    </Icon>
  );
}

/** One icon per authentication type (spec 1, section 2: occupations show their types as icons). */
export function AuthTypeIcon({ type }: { type: AuthenticationType }) {
  switch (type) {
    case 'LOGIN':
      return (
        <Icon size={16}>
          <rect x="1.5" y="3.5" width="13" height="9" rx="1.5" stroke="currentColor" strokeWidth="1.4" fill="none" />
          <Stroke d="M2 4.5l6 4.5 6-4.5" width={1.4} />
        </Icon>
      );
    case 'LOGIN_WITH_MFA':
      return (
        <Icon size={16}>
          <Stroke d="M8 1.5l5.5 2v4c0 3.4-2.3 5.9-5.5 7-3.2-1.1-5.5-3.6-5.5-7v-4z" width={1.4} />
          <Stroke d="M5.5 8l2 2 3.5-3.5" width={1.4} />
        </Icon>
      );
    case 'PASS':
      return (
        <Icon size={16}>
          <rect x="1.5" y="3" width="13" height="10" rx="1.5" stroke="currentColor" strokeWidth="1.4" fill="none" />
          <circle cx="5.5" cy="7.5" r="1.6" stroke="currentColor" strokeWidth="1.2" fill="none" />
          <Stroke d="M9 6.5h3.5M9 9h3.5M3.5 11c.4-1 1.1-1.5 2-1.5s1.6.5 2 1.5" width={1.2} />
        </Icon>
      );
    case 'BASIC':
      return (
        <Icon size={16}>
          <Stroke d="M5.5 4L2 8l3.5 4M10.5 4L14 8l-3.5 4" width={1.4} />
        </Icon>
      );
  }
}

// ---- row and action icons (grids' action cells); decorative: callers give the accessible name

export function EditIcon() {
  return (
    <Icon size={16}>
      <Stroke d="M10.8 2.7l2.5 2.5-7.6 7.6-3.2.7.7-3.2 7.6-7.6zM9.6 3.9l2.5 2.5" width={1.4} join />
    </Icon>
  );
}

export function CopyIcon() {
  return (
    <Icon size={16}>
      <rect x="5.5" y="5.5" width="8" height="8" rx="1.5" stroke="currentColor" strokeWidth="1.4" fill="none" />
      <Stroke d="M10.5 3.5v-.5A1.5 1.5 0 0 0 9 1.5H4A1.5 1.5 0 0 0 2.5 3v5A1.5 1.5 0 0 0 4 9.5h.5" width={1.4} />
    </Icon>
  );
}

export function TrashIcon() {
  return (
    <Icon size={16}>
      <Stroke
        d="M2.5 4.5h11M6.5 4.5V3a1 1 0 0 1 1-1h1a1 1 0 0 1 1 1v1.5M4 4.5l.7 8.6a1 1 0 0 0 1 .9h4.6a1 1 0 0 0 1-.9l.7-8.6M6.7 7v4.5M9.3 7v4.5"
        width={1.3}
        cap
        join
      />
    </Icon>
  );
}

export function StarIcon() {
  return (
    <Icon size={12} box={16}>
      <path d="M8 1.2l2.1 4.3 4.7.7-3.4 3.3.8 4.7L8 12l-4.2 2.2.8-4.7L1.2 6.2l4.7-.7z" fill="currentColor" />
    </Icon>
  );
}

export function LockIcon() {
  return (
    <Icon size={16}>
      <rect x="3" y="7" width="10" height="7" rx="1.5" stroke="currentColor" strokeWidth="1.4" fill="none" />
      <Stroke d="M5.5 7V5a2.5 2.5 0 0 1 5 0v2" width={1.4} />
    </Icon>
  );
}

export function ShieldIcon() {
  return (
    <Icon size={14} box={16}>
      <path d="M8 1.5l5.5 2v4c0 3.4-2.3 5.9-5.5 7-3.2-1.1-5.5-3.6-5.5-7v-4z" fill="currentColor" />
    </Icon>
  );
}

export function KeyOffIcon() {
  return (
    <Icon size={16}>
      <circle cx="5" cy="8" r="2.5" stroke="currentColor" strokeWidth="1.4" fill="none" />
      <Stroke d="M7.5 8h6M11.5 8v2M13.5 8v1.5M2 2l12 12" width={1.4} cap />
    </Icon>
  );
}

export function MailIcon() {
  return (
    <Icon size={14} box={16}>
      <rect x="1.5" y="3.5" width="13" height="9" rx="1.5" stroke="currentColor" strokeWidth="1.4" fill="none" />
      <Stroke d="M2 4.5l6 4.5 6-4.5" width={1.4} />
    </Icon>
  );
}

export function CheckCircleIcon() {
  return (
    <Icon size={14} box={16}>
      <circle cx="8" cy="8" r="6.5" fill="currentColor" />
      <Stroke d="M5 8.2l2 2 4-4.2" width={1.6} cap join color="#fff" />
    </Icon>
  );
}

export function DashIcon() {
  return (
    <Icon size={14} box={16}>
      <path d="M5 8h6" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
    </Icon>
  );
}
