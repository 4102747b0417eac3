import type { AuthenticationType, LocaleCode, Organization } from '@eelarve/shared';
import { type AppDatabase, readModels } from '../../infrastructure/database';

export async function listOrganizations(db: AppDatabase): Promise<Organization[]> {
  const rows = await readModels(db).selectFrom('organizations').selectAll().orderBy('name').execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    createdAt: row.created_at.toISOString(),
    nrOfUsers: row.nr_of_users,
    localeCode: row.locale_code as LocaleCode,
    localeSettings: row.locale_settings,
    enableResourceStatuses: row.enable_resource_statuses,
    allowResourceStatusEditing: row.allow_resource_status_editing,
    allowedAuthenticationTypes: row.allowed_authentication_types as AuthenticationType[],
    apiUsageAllowed: row.api_usage_allowed,
    sessionLength: row.session_length,
    sessionLengthMultiplier: Number(row.session_length_multiplier),
    isPlatform: row.is_platform,
  }));
}
