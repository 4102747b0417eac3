/** Strings of what resource statuses lock on the document and budget screens (issue 10, points 2 and 5); spread into both catalogs. */
const et = {
  'statusLock.locked': 'Lukus',
  'statusLock.badgeTitle': 'Lukus staatuse „{status}“ tõttu',
  'statusLock.badgeTitle.document': 'Lukus dokumendi staatuse „{status}“ tõttu',
  'statusLock.budgetSettings': 'Eelarve seadeid ei saa muuta, sest selle staatus on „{status}“.',
  'statusLock.budgetSettings.document': 'Eelarve seadeid ei saa muuta, sest dokumendi staatus on „{status}“.',
  'statusLock.documentSettings': 'Dokumendi seadeid ei saa muuta, sest selle staatus on „{status}“.',
  'statusLock.settings': 'Staatus ei luba seadeid muuta.',
  'statusLock.statusOnly': 'Staatuste haldajana saad muuta ainult staatust.',
  'statusLock.askStatusAdmin': 'Staatust saab muuta staatuste haldaja.',
  'statusLock.action': 'Staatus „{status}“ ei luba seda teha.',
  'statusLock.action.document': 'Dokumendi staatus „{status}“ ei luba seda teha.',
  'statusLock.hidden.title': 'Eelarve on peidetud',
  'statusLock.hidden.text': 'Eelarvet ei saa avada, sest selle staatus on „{status}“.',
  'statusLock.hidden.text.document': 'Eelarvet ei saa avada, sest dokumendi staatus on „{status}“.',
};

const en: Record<keyof typeof et, string> = {
  'statusLock.locked': 'Locked',
  'statusLock.badgeTitle': 'Locked by its status “{status}”',
  'statusLock.badgeTitle.document': 'Locked by the document’s status “{status}”',
  'statusLock.budgetSettings': 'The budget’s settings cannot be changed because its status is “{status}”.',
  'statusLock.budgetSettings.document': 'The budget’s settings cannot be changed because the document’s status is “{status}”.',
  'statusLock.documentSettings': 'The document’s settings cannot be changed because its status is “{status}”.',
  'statusLock.settings': 'Its status does not allow changing the settings.',
  'statusLock.statusOnly': 'As a status administrator you may change only the status.',
  'statusLock.askStatusAdmin': 'A status administrator can change the status.',
  'statusLock.action': 'The status “{status}” does not allow this.',
  'statusLock.action.document': 'The document’s status “{status}” does not allow this.',
  'statusLock.hidden.title': 'This budget is hidden',
  'statusLock.hidden.text': 'The budget cannot be opened because its status is “{status}”.',
  'statusLock.hidden.text.document': 'The budget cannot be opened because the document’s status is “{status}”.',
};

export const statusLockMessages = { et, en };
