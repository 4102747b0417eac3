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

/**
 * Projectors no command waits on for read-your-writes (the report's read model is read by report
 * queries, which wait for it themselves): the gateway runs them on a thread of its own
 * (thread.ts), so their batches — every record edit is one for the report too — and their garbage
 * collections never hold up the event loop that answers requests.
 */
const BACKGROUND = new Set([reportProjector.name]);
export const backgroundProjectors: readonly Projector[] = productProjectors.filter((projector) => BACKGROUND.has(projector.name));
/** This module, for a thread that imports the lists above itself (startProjectionsThread). */
export const REGISTRY_MODULE = import.meta.url;
/** The rest: commands wait for them, so they run beside the requests (a wait is then a look at memory). */
export const foregroundProjectors: readonly Projector[] = productProjectors.filter((projector) => !BACKGROUND.has(projector.name));

/** The projectors a process should run; a hook so scripts and tests can substitute their own. */
export function resolveProjectors(): readonly Projector[] {
  return productProjectors;
}
