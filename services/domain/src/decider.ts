/**
 * The shape every aggregate follows (DESIGN.md section 1): a pure decider over the events of one
 * stream. `decide` returns the new events or throws a DomainError; nothing here does I/O, and time
 * and ids come in with the command.
 */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

export interface Decider<Command, Event extends DomainEvent, State> {
  /** Stream name of the aggregate a command addresses. */
  streamName(command: Command): string;
  initialState(): State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Event[];
}

export function foldEvents<Event, State>(decider: { initialState(): State; evolve(state: State, event: Event): State }, events: readonly Event[]): State {
  return events.reduce((state, event) => decider.evolve(state, event), decider.initialState());
}
