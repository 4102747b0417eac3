import { Icon, Stroke } from './icons';

export function DocumentIcon() {
  return (
    <Icon size={16}>
      <Stroke d="M4 1.5h5.5L12.5 4.5v10h-8.5zM9.5 1.5v3h3M6 8h4.5M6 10.5h4.5" width={1.3} join />
    </Icon>
  );
}

export function ChevronIcon({ left }: { left: boolean }) {
  return (
    <Icon size={16}>
      <Stroke d={left ? 'M10 3.5L5.5 8l4.5 4.5' : 'M6 3.5L10.5 8 6 12.5'} width={1.6} cap join />
    </Icon>
  );
}

export function DragIcon() {
  return (
    <Icon size={14}>
      <Stroke d="M5 4h.01M5 8h.01M5 12h.01M10 4h.01M10 8h.01M10 12h.01" width={2.2} cap />
    </Icon>
  );
}

export function CommonBudgetIcon() {
  return (
    <Icon size={16}>
      <Stroke d="M2 3.5h12v9H2zM2 6.5h12M6 6.5v6" width={1.3} join />
    </Icon>
  );
}

export function SumBudgetIcon() {
  return (
    <Icon size={16}>
      <Stroke d="M12 3H4l4.5 5L4 13h8" width={1.5} cap join />
    </Icon>
  );
}

export function MonitoringBudgetIcon() {
  return (
    <Icon size={16}>
      <Stroke d="M1.5 9h3l2-5 3 8 2-3h3" width={1.5} cap join />
    </Icon>
  );
}
