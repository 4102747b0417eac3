import { Icon, Stroke } from '../../components/icons';

/** Inline icons of the roles and users screens. All are decorative: callers give the accessible name. */

export { CheckIcon } from '../../components/icons';

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
      <Stroke d="M2.5 4.5h11M6.5 4.5V3a1 1 0 0 1 1-1h1a1 1 0 0 1 1 1v1.5M4 4.5l.7 8.6a1 1 0 0 0 1 .9h4.6a1 1 0 0 0 1-.9l.7-8.6M6.7 7v4.5M9.3 7v4.5" width={1.3} cap join />
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
