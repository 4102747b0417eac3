/**
 * Messages of the dashboard's recently visited report views (spec 1, section 2) and of the saved
 * report views' server codes; spread into both catalogs. `en` must carry exactly the keys of `et`.
 */
const et = {
  'dashboard.recentReports.title': 'Viimati vaadatud aruanded',
  'dashboard.recentReports.empty': 'Sa pole veel ühtegi aruannet vaadanud.',
  'dashboard.recentReports.loadFailed': 'Viimati vaadatud aruandeid ei õnnestunud laadida',
  'dashboard.recentReports.document': 'Dokument',
  'dashboard.recentReports.budget': 'Eelarve',
  'dashboard.recentReports.visitedAt': 'Vaadatud',
  'error.STORED_SETTING_NAME_NOT_UNIQUE': 'Sellise nimega vaade on juba olemas.',
} as const;

const en: Record<keyof typeof et, string> = {
  'dashboard.recentReports.title': 'Recently visited reports',
  'dashboard.recentReports.empty': 'You have not viewed any reports yet.',
  'dashboard.recentReports.loadFailed': 'Recently visited reports could not be loaded',
  'dashboard.recentReports.document': 'Document',
  'dashboard.recentReports.budget': 'Budget',
  'dashboard.recentReports.visitedAt': 'Viewed',
  'error.STORED_SETTING_NAME_NOT_UNIQUE': 'A view with this name already exists.',
};

export const dashboardMessages = { et, en };
