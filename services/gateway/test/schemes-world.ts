import { schemesFixture } from '@eelarve/testing/schemes';
import { accountsFixture, PASSWORD } from '@eelarve/testing/accounts';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { type Client, login } from './helpers';

/** What the schemes and sub-budgets API tests start from. */
export interface SchemesWorld {
  server: TestServer;
  admin: Client;
  accounts: ReturnType<typeof accountsFixture>;
  fixture: ReturnType<typeof schemesFixture>;
  organizationId: string;
  /** SCHEMA_ADMIN in the organisation. */
  schemaAdmin: Client;
  /** SCHEMA_VIEW only. */
  schemaViewer: Client;
  /** SCHEMA_ADMIN in another organisation. */
  outsider: Client;
}

/** A test server with an organisation, its scheme administrator and viewer, and an outsider from another organisation. */
export async function schemesWorld(organizationName: string, otherOrganizationName: string): Promise<SchemesWorld> {
  const server = await startTestServer({ listen: false });
  const admin = await login(server.app, server.admin.email, server.admin.password);
  const accounts = accountsFixture(server.app, admin);
  // Each reads its organisation's documents (a read grant on the organisation); privileges decide the rest.
  const member = async (organizationId: string, privilege: string) => {
    const made = await accounts.member(organizationId, [privilege]);
    await accounts.grant(made.occupationId, [{ read: true }]);
    return login(server.app, made.email, PASSWORD);
  };
  const organizationId = await accounts.organization(organizationName);
  const otherOrganization = await accounts.organization(otherOrganizationName);
  return {
    server,
    admin,
    accounts,
    fixture: schemesFixture(server.app),
    organizationId,
    schemaAdmin: await member(organizationId, 'SCHEMA_ADMIN'),
    schemaViewer: await member(organizationId, 'SCHEMA_VIEW'),
    outsider: await member(otherOrganization, 'SCHEMA_ADMIN'),
  };
}
