import { findFreePort } from '@eelarve/postgres';
import { GenericContainer, getContainerRuntimeClient, type StartedTestContainer, Wait } from 'testcontainers';
import { afterAll, describe, it } from 'vitest';
import { createEventStoreDbEventStore } from '../src/eventstoredb';
import { type ContractHarness, describeEventStoreContract } from './contract';

const IMAGE = process.env.EVENTSTORE_IMAGE ?? 'docker.eventstore.com/eventstore/eventstore:24.10';
const ESDB_PORT = 2113;

async function containerRuntimeReachable(): Promise<boolean> {
  const timeout = new Promise<false>((resolve) => setTimeout(() => resolve(false), 5_000).unref());
  const probe = getContainerRuntimeClient().then(
    () => true,
    () => false,
  );
  return Promise.race([probe, timeout]);
}

/**
 * One server for the file, on a fixed host port so that the connection string survives a
 * restart. Appends up to 16 MB (the contract stores a 5 MB event and 10,000-event batches).
 */
async function startEventStoreDb(): Promise<StartedTestContainer> {
  const port = await findFreePort();
  return new GenericContainer(IMAGE)
    .withEnvironment({
      EVENTSTORE_INSECURE: 'true',
      EVENTSTORE_RUN_PROJECTIONS: 'None',
      EVENTSTORE_MAX_APPEND_SIZE: String(16 * 1024 * 1024),
    })
    .withExposedPorts({ container: ESDB_PORT, host: port })
    .withWaitStrategy(Wait.forHttp('/health/live', ESDB_PORT).forStatusCode(204))
    .withStartupTimeout(120_000)
    .start();
}

const configured = process.env.EVENTSTORE_CONNECTION_STRING;
const runtime = configured ? false : await containerRuntimeReachable();

if (!configured && !runtime) {
  console.log('EventStoreDB contract tests skipped: set EVENTSTORE_CONNECTION_STRING or start a container engine.');
  describe.skip('EventStoreDbEventStore: event store contract', () => {
    it('needs an EventStoreDB server', () => {});
  });
} else {
  let container: Promise<StartedTestContainer> | null = null;

  afterAll(async () => {
    await (await container)?.stop();
  });

  describeEventStoreContract('EventStoreDbEventStore', async (): Promise<ContractHarness> => {
    let connectionString = configured;
    let restartDatabase: (() => Promise<void>) | undefined;
    if (!connectionString) {
      container ??= startEventStoreDb();
      const started = await container;
      connectionString = `esdb://${started.getHost()}:${started.getMappedPort(ESDB_PORT)}?tls=false`;
      restartDatabase = () => started.restart();
    }
    const store = createEventStoreDbEventStore({ connectionString });
    return { store, cleanup: () => store.close(), restartDatabase };
  });
}
