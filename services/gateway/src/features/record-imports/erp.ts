import { findBudget } from '@eelarve/projections/budgets/queries';
import { findOrganization } from '@eelarve/projections/organizations/queries';
import { DomainError } from '@eelarve/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { readModels } from '../../infrastructure/database';
import { budgetOfApiKey } from '../budgets/api-keys';
import type { ImportTarget } from './facts';

/**
 * An ERP job's import (issue 11, point 5): POST {host}/budgets/{budgetId}/import, the import
 * address the budget form shows, authenticated by HTTP Basic with the budget's API key (as the
 * password; or as the user name with an empty password). Only for a monitoring budget whose key
 * it is, in an organisation that allows API usage (the BASIC authentication type and the
 * API-usage flag). A wrong or missing key answers 401 with a Basic challenge.
 */
function apiKeyOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization ?? '';
  const [scheme, encoded] = header.split(' ');
  if (scheme?.toLowerCase() !== 'basic' || !encoded) return null;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return decoded || null;
  const [user, password] = [decoded.slice(0, colon), decoded.slice(colon + 1)];
  return password || user || null;
}

function unauthorized(reply: FastifyReply): never {
  reply.header('www-authenticate', 'Basic realm="budget import", charset="UTF-8"');
  throw new DomainError('UNAUTHORIZED', 'the budget import API key is missing or wrong');
}

/** The monitoring budget the key opens, checked against the path's budget and its organisation's API usage. */
export async function erpImportTarget(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, budgetId: string): Promise<ImportTarget> {
  const apiKey = apiKeyOf(request);
  const keyBudgetId = apiKey ? await budgetOfApiKey(app.db, apiKey) : null;
  if (!keyBudgetId || keyBudgetId !== budgetId) unauthorized(reply);
  const budget = await findBudget(readModels(app.db), budgetId);
  if (budget?.type !== 'MONITORING') unauthorized(reply);
  const organization = await findOrganization(readModels(app.db), budget.organization_id);
  if (!organization?.api_usage_allowed || !organization.allowed_authentication_types.includes('BASIC')) {
    throw new DomainError('API_USAGE_NOT_ALLOWED', 'the organisation does not allow API usage');
  }
  return { budget, subBudgetId: null };
}
