import { accountsProjector } from './accounts/projector';
import { budgetApprovalProjector } from './budget-approval/projector';
import { approvalRoutesProjector } from './budget-approval/route-projector';
import { classifiersProjector } from './classifiers/projector';
import { budgetsProjector } from './budgets/projector';
import { documentsProjector } from './documents/projector';
import { organizationsProjector } from './organizations/projector';
import { permissionsProjector } from './permissions/projector';
import type { Projector } from './projector';
import { recordsProjector } from './records/projector';
import { reportProjector } from './report/projector';
import { resourceStatusesProjector } from './resource-statuses/projector';
import { schemesProjector } from './schemes/projector';
import { storedSettingsProjector } from './stored-settings/projector';

/**
 * The product's projectors: the process that serves the product runs these, and
 * `pnpm projections` rebuilds them. Each feature adds its projector here (organizations,
 * users, ...). Table names must be unique across all of them, because every table is served as
 * the view `read.<table>`.
 */
export const productProjectors: readonly Projector[] = [
  organizationsProjector,
  accountsProjector,
  documentsProjector,
  budgetsProjector,
  schemesProjector,
  classifiersProjector,
  permissionsProjector,
  resourceStatusesProjector,
  budgetApprovalProjector,
  approvalRoutesProjector,
  recordsProjector,
  reportProjector,
  storedSettingsProjector,
];

/** The projectors a process should run; a hook so scripts and tests can substitute their own. */
export function resolveProjectors(): readonly Projector[] {
  return productProjectors;
}
