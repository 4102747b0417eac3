/**
 * Messages of the organisations tab's admin actions (set / remove the organisation administrator,
 * spec 1, sections 2 and 4); spread into both catalogs.
 */
const et = {
  'organizations.setAdmin': 'Määra end administraatoriks',
  'organizations.removeAdmin': 'Eemalda administraatori ametikoht',
  'organizations.adminBadge': 'Oled administraator',
  'organizations.setAdmin.title': 'Administraatori määramine',
  'organizations.setAdmin.question':
    'Kas soovid saada organisatsiooni „{name}” administraatoriks? Sulle luuakse selles organisatsioonis administraatori ametikoht.',
  'organizations.setAdmin.confirm': 'Määra administraatoriks',
  'organizations.setAdmin.failed': 'Administraatorit ei õnnestunud määrata',
  'organizations.removeAdmin.title': 'Administraatori eemaldamine',
  'organizations.removeAdmin.question': 'Kas soovid eemaldada oma administraatori ametikoha organisatsioonis „{name}”?',
  'organizations.removeAdmin.ownWarningTitle': 'Sind logitakse välja',
  'organizations.removeAdmin.ownWarning': 'See on sinu praeguse seansi ametikoht. Pärast eemaldamist logitakse sind välja ja pead uuesti sisse logima.',
  'organizations.removeAdmin.confirm': 'Eemalda',
  'organizations.removeAdmin.failed': 'Administraatorit ei õnnestunud eemaldada',
} as const;

const en: Record<keyof typeof et, string> = {
  'organizations.setAdmin': 'Make me administrator',
  'organizations.removeAdmin': 'Remove administrator occupation',
  'organizations.adminBadge': 'You are administrator',
  'organizations.setAdmin.title': 'Set administrator',
  'organizations.setAdmin.question':
    'Do you want to become the administrator of “{name}”? An administrator occupation is created for you in this organisation.',
  'organizations.setAdmin.confirm': 'Make administrator',
  'organizations.setAdmin.failed': 'The administrator could not be set',
  'organizations.removeAdmin.title': 'Remove administrator',
  'organizations.removeAdmin.question': 'Do you want to remove your administrator occupation in “{name}”?',
  'organizations.removeAdmin.ownWarningTitle': 'You will be logged out',
  'organizations.removeAdmin.ownWarning': 'This is the occupation of your current session. After removing it you are logged out and have to log in again.',
  'organizations.removeAdmin.confirm': 'Remove',
  'organizations.removeAdmin.failed': 'The administrator could not be removed',
};

export const organizationAdminMessages = { et, en };
