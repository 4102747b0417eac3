/**
 * Written summaries for the operations an ERP integrator and the records screens use, where the
 * generated sentence would read poorly ("Records budget"), and the security of the ERP routes,
 * which check the budget's API key themselves (HTTP Basic) rather than a session. Kept here, beside
 * the document pass, so the feature routes need not change; a route's own `summary` or `security`
 * wins. Keyed by method and path as the document shows them: the lint test checks that each key
 * still names an operation, so a renamed route cannot leave its entry behind unnoticed.
 */
export interface OperationDetails {
  summary: string;
  /** Security requirements replacing the session (or none) the route's access implies. */
  security?: Record<string, string[]>[];
  /** Error statuses beyond those the route's access and method imply. */
  errorStatuses?: number[];
}

const place = '/api/budget/{budgetId}/sub-budget/{subBudgetId}';
const budgetApiKey = [{ budgetApiKey: [] }];

export const OPERATION_DETAILS: Record<string, OperationDetails> = {
  // A public route that still checks credentials: a wrong password answers 401.
  'post /initial/auth/login': { summary: 'Sign in with e-mail and password', errorStatuses: [401] },
  // records (spec 3, section 7)
  'get /api/budget/{budgetId}/records': { summary: "List a budget's records" },
  'get /api/budget/{budgetId}/schema/{schemaId}/records': { summary: "List a budget's records with their sub-budget in a scheme" },
  'get /api/budget/{budgetId}/schema-records': { summary: "List a budget's records with their sub-budgets in several schemes" },
  [`get ${place}/records`]: { summary: "List a sub-budget's records (-2 with schemaId: those that fit no sub-budget of the scheme)" },
  [`post ${place}/record`]: { summary: 'Create a record' },
  [`put ${place}/record/{id}`]: { summary: 'Edit a record' },
  [`delete ${place}/record/{id}`]: { summary: 'Delete a record' },
  [`post ${place}/record/{id}/promote`]: { summary: 'Promote a record, or take its promotion back' },
  [`post ${place}/records-delete`]: { summary: 'Delete several records' },
  [`post ${place}/records-bulk-edit`]: { summary: 'Edit several records at once: name, amount or a classifier' },
  [`get ${place}/record/{id}/history`]: { summary: "A record's versions with the changed fields, who and when" },
  [`post ${place}/record/{id}/revert`]: { summary: 'Revert one past change of a record with a new, compensating event' },
  [`get ${place}/record/{id}/events`]: { summary: "A record's stored events with their metadata, for auditors" },
  // record imports (spec 3, section 7; issue 11, points 4 and 5)
  'post /api/budget/{budgetId}/records': { summary: 'Import records into a budget (gzip JSON; runs as a job)' },
  [`post ${place}/records`]: { summary: 'Import records into a sub-budget (gzip JSON; runs as a job)' },
  'post /api/budget/{budgetId}/records/preview': { summary: 'What an import into a budget would change' },
  [`post ${place}/records/preview`]: { summary: 'What an import into a sub-budget would change' },
  'get /api/budget/{budgetId}/import/status': { summary: "The status of the budget's latest import" },
  'get /api/budget/{budgetId}/import/report': { summary: "The result of the budget's latest finished import" },
  'get /api/budget/{budgetId}/import/error': { summary: "The rows the budget's latest import refused or corrected, with their errors" },
  [`get ${place}/import/status`]: { summary: "The status of the sub-budget's latest import" },
  [`get ${place}/import/report`]: { summary: "The result of the sub-budget's latest finished import" },
  'post /budgets/{budgetId}/import': {
    summary: "An ERP job imports records into a monitoring budget (gzip JSON, HTTP Basic with the budget's API key)",
    security: budgetApiKey,
  },
  'get /budgets/{budgetId}/import/status': { summary: "The status of the monitoring budget's latest import, for its ERP job", security: budgetApiKey },
  // saved report views and column sets, recently visited reports (spec 3, section 7; issue 12, points 3 and 4)
  'get /api/stored-settings': { summary: "A report menu: the general saved views or column sets, then the caller's own" },
  'get /api/stored-setting/{id}': { summary: 'One saved view or column set' },
  'post /api/stored-settings': { summary: 'Save a personal view or column set' },
  'put /api/stored-settings': { summary: 'Rename or change a saved view or column set' },
  'delete /api/stored-settings/{id}': { summary: 'Delete a saved view or column set' },
  'post /api/stored-settings/order': { summary: "Reorder a menu's general or own saved views or column sets" },
  'post /api/stored-settings/{id}/promote': { summary: 'Make a personal saved view or column set general (document update permission)' },
  'post /api/user-action-logs': { summary: "Record a visit of a budget's report" },
  'get /api/user-action-logs/current-occupation': { summary: "The current occupation's recently visited reports, newest first (at most 10)" },
};

/** What each group of operations is for, shown above it in the docs; a tag not listed here goes without. */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  'admin: projections': "The read models' state and their rebuild, for platform administrators.",
  administration: "An organisation's administrator occupation: set and remove.",
  auth: 'Sign-in, the session and its occupation, multi-factor authentication, passwords.',
  budgets: "A document's budgets: common, sum and monitoring budgets, their copies, order, tags and API key.",
  classifiers: "A document's classifiers and their items, with imports from files.",
  documents: "An organisation's budget documents: period, settings, copies and order.",
  'electronic-id': 'Sign-in, registration and binding with the electronic ID (OpenID Connect).',
  locales: 'The languages and locale settings an organisation can choose.',
  occupations: "An organisation's occupations: a user's roles in it.",
  organizations: 'Organisations and their settings, for platform administrators.',
  permissions: 'Grants of read and update on documents, budgets and sub-budgets.',
  'record imports': 'Imports of records from files, other budgets and ERP jobs: the job, its status and error report.',
  records: 'Budget lines with monthly splits in exact decimals, their history and revert.',
  'resource-statuses': 'Statuses of documents and budgets, the rules they carry and the approval route.',
  roles: "An organisation's roles and the privileges they hold.",
  schemes: "A document's schemes: the classifiers that divide its budgets into sub-budgets.",
  'stored-settings': 'Saved report views and column sets, personal and general.',
  'sub-budgets': "A scheme's sub-budgets, their classifier values, preselections and imports.",
  tasks: 'Background tasks (copies, imports): their progress and result.',
  'user-action-logs': "The current occupation's recently visited reports.",
  'user-settings': "The signed-in user's own settings and e-mail address.",
  users: "An organisation's users.",
};
