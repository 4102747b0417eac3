/**
 * Records, record history, imports and exports (spec 3; issue 11): server error messages and the
 * records screen's own keys; spread into both catalogs.
 */
const et = {
  'error.RECORD_NOT_FOUND': 'Kirjet ei leitud.',
  'error.RECORD_ID_INVALID': 'Vigane kirje tunnus.',
  'error.RECORD_NAME_TOO_LONG': 'Kirje nimi on liiga pikk.',
  'error.RECORD_FACTORS_MISMATCH': 'Kuude summad ei anna kokku kirje summat.',
  'error.RECORD_FACTORS_INVALID': 'Kuude väärtused või periood on vigased.',
  'error.RECORD_PERIOD_MONTH_INVALID': 'Kuu peab olema vahemikus 1–12.',
  'error.RECORD_PERIOD_OUT_OF_RANGE': 'Kuu jääb väljapoole dokumendi perioodi.',
  'error.RECORD_CLASSIFIER_INVALID': 'Vigane klassifikaator.',
  'error.RECORD_CLASSIFIER_REQUIRED': 'Kohustuslikul klassifikaatoril puudub väärtus.',
  'error.RECORD_CLASSIFIER_ITEM_INVALID': 'Klassifikaatori väärtust ei leitud.',
  'error.RECORD_CLASSIFIER_ITEM_UNSELECTABLE': 'Seda klassifikaatori väärtust ei saa valida.',
  'error.RECORD_MASTER_CLASSIFIER_MISSING': 'Kirjel puudub põhiklassifikaatori väärtus.',
  'error.RECORD_DOES_NOT_MATCH_SUB_BUDGET': 'Kirje klassifikaatorid ei vasta alameelarvele.',
  'error.RECORD_REVERT_NOT_POSSIBLE': 'Seda muudatust ei saa enam tagasi võtta.',
  'error.IMPORT_NOT_FOUND': 'Importi ei leitud.',
  'validation.amount': 'Sisesta arv (kuni 15 numbrit enne ja 6 pärast koma).',
};

const en: Record<keyof typeof et, string> = {
  'error.RECORD_NOT_FOUND': 'Record not found.',
  'error.RECORD_ID_INVALID': 'Invalid record id.',
  'error.RECORD_NAME_TOO_LONG': 'The record name is too long.',
  'error.RECORD_FACTORS_MISMATCH': 'The monthly values do not add up to the amount.',
  'error.RECORD_FACTORS_INVALID': 'The monthly values or the period are invalid.',
  'error.RECORD_PERIOD_MONTH_INVALID': 'The month must be between 1 and 12.',
  'error.RECORD_PERIOD_OUT_OF_RANGE': 'The month is outside the document period.',
  'error.RECORD_CLASSIFIER_INVALID': 'Invalid classifier.',
  'error.RECORD_CLASSIFIER_REQUIRED': 'A required classifier has no value.',
  'error.RECORD_CLASSIFIER_ITEM_INVALID': 'Classifier value not found.',
  'error.RECORD_CLASSIFIER_ITEM_UNSELECTABLE': 'This classifier value cannot be selected.',
  'error.RECORD_MASTER_CLASSIFIER_MISSING': 'The record has no master classifier value.',
  'error.RECORD_DOES_NOT_MATCH_SUB_BUDGET': 'The record’s classifiers do not match the sub-budget.',
  'error.RECORD_REVERT_NOT_POSSIBLE': 'This change can no longer be undone.',
  'error.IMPORT_NOT_FOUND': 'Import not found.',
  'validation.amount': 'Enter a number (up to 15 digits before and 6 after the decimal point).',
};

export const recordsMessages = { et, en };
