import { DomainError } from '@eelarve/shared';
import { expect } from 'vitest';
import { type Decider, type DomainEvent, foldEvents } from './decider';

/** given(events).when(command)() decides the command on the state those events build. */
export function givenFor<Command, Event extends DomainEvent, State>(decider: Pick<Decider<Command, Event, State>, 'initialState' | 'evolve' | 'decide'>) {
  return (events: Event[]) => {
    const state = foldEvents(decider, events);
    return { when: (command: Command) => () => decider.decide(command, state) };
  };
}

/** Runs a decision and expects it to refuse with the given catalogue code. */
export function expectDomainError(run: () => unknown, code: string): void {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(DomainError);
  expect((thrown as DomainError).code).toBe(code);
}
