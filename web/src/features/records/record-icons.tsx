import { Icon, Stroke } from '../../components/icons';

/** A clock with a backward arrow: a record's history. */
export function HistoryIcon() {
  return (
    <Icon size={16}>
      <Stroke d="M2.5 8a5.5 5.5 0 1 0 1.6-3.9M2.5 2.5v2.2h2.2M8 5v3.2l2.2 1.4" width={1.4} cap join />
    </Icon>
  );
}

/** A calendar grid: a record's monthly split. */
export function CalendarIcon() {
  return (
    <Icon size={16}>
      <rect x="2" y="3" width="12" height="11" rx="1.5" stroke="currentColor" strokeWidth="1.4" fill="none" />
      <Stroke d="M2 6.5h12M5.5 1.8v2.4M10.5 1.8v2.4M5 9h1.5M9.5 9H11M5 11.5h1.5M9.5 11.5H11" width={1.3} cap />
    </Icon>
  );
}
