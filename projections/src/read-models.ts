import type { AccountsReadModel } from './accounts/tables';
import type { OrganizationsReadModel } from './organizations/tables';

/** Every read-model table as queries see it through the `read` schema's views. */
export type ReadModels = OrganizationsReadModel & AccountsReadModel;
