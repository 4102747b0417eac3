import type { AccountsReadModel } from './accounts/tables';
import type { BudgetsReadModel } from './budgets/tables';
import type { ClassifiersReadModel } from './classifiers/tables';
import type { DocumentsReadModel } from './documents/tables';
import type { OrganizationsReadModel } from './organizations/tables';
import type { SchemesReadModel } from './schemes/tables';

/** Every read-model table as queries see it through the `read` schema's views. */
export type ReadModels = OrganizationsReadModel & AccountsReadModel & DocumentsReadModel & BudgetsReadModel & SchemesReadModel & ClassifiersReadModel;
