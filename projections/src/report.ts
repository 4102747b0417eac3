import { formatPosition } from '@eelarve/eventstore';
import type { ParkedEvent } from './parked';
import type { ProjectorStatus } from './status';

function describe(row: ProjectorStatus): string {
  const behind = row.eventsBehind === null ? `head ${formatPosition(row.head)}` : `${row.eventsBehind} events behind`;
  const error = row.lastError ? `  last error: ${row.lastError}` : '';
  const parked = row.parkedCount > 0 ? `, DEGRADED: ${row.parkedCount} parked events` : '';
  return `${row.name} v${row.version} g${row.generation} ${row.role} ${row.state}: ${row.eventsApplied} events applied${parked}, at ${formatPosition(row.position)}, ${behind}${error}`;
}

function describeParked(event: ParkedEvent): string {
  return `  parked ${event.eventType} ${event.eventId} in ${event.streamName} at ${formatPosition(event.position)}, ${event.attempts} attempts from ${event.firstFailedAt.toISOString()}: ${event.error}`;
}

/**
 * What `pnpm projections status` prints: a line per generation (position, lag, parked count)
 * and one per listed parked event, with what to do about them.
 */
export function statusLines(rows: readonly ProjectorStatus[]): string[] {
  return rows.flatMap((row) => {
    const unlisted = row.parkedCount - row.parkedEvents.length;
    const more = unlisted > 0 ? [`  ... and ${unlisted} more parked events`] : [];
    const fix = row.parkedCount > 0 ? [`  fix the projector, then replay them: pnpm projections rebuild ${row.name}`] : [];
    return [describe(row), ...row.parkedEvents.map(describeParked), ...more, ...fix];
  });
}
