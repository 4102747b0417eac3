/**
 * Records, record history, imports and exports (spec 3; issue 11): server error messages and the
 * records screen's own keys; spread into both catalogs.
 */
import { recordImportExportMessages } from './import/messages';
import { recordsScreenMessages } from './screen-messages';

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
  'error.IMPORT_BODY_TOO_LARGE': 'Imporditavad andmed on liiga suured: pakitult kuni 20 MB ja lahtipakituna kuni 200 MB.',
  'error.IMPORT_BODY_INVALID': 'Imporditavad andmed ei ole gzip-pakitud JSON.',
  'error.API_USAGE_NOT_ALLOWED': 'Organisatsioonil ei ole API kasutamine lubatud.',
  'error.IMPORT_BUDGET_TYPE_INVALID': 'Sellesse eelarvesse ei saa kirjeid importida.',
  'validation.amount': 'Sisesta arv (kuni 15 numbrit enne ja 6 pärast koma).',
  'validation.requiredField': 'Kohustuslik klassifikaator vajab väärtust.',
  // Import row errors (spec 3 section 5; shared/src/records/import-validation.ts): 'records.importError.' + message key.
  'records.importError.emptyName': 'Nimi puudub.',
  'records.importError.emptyNameMaster': 'Nimi puudub: nimeks võetakse põhiklassifikaatori väärtuse nimi.',
  'records.importError.validation.max': 'Nimi on pikem kui 256 märki.',
  'records.importError.periodValueNotNumeric': 'Kuu väärtus ei ole arv.',
  'records.importError.periodOutsideDocument': 'Kuu väärtus jääb väljapoole dokumendi perioodi.',
  'records.importError.sumNotNumeric': 'Summa ei ole arv.',
  'records.importError.sumAndPeriodizedInfoMissing': 'Summa ja kuude väärtused puuduvad: summaks võetakse 0,00.',
  'records.importError.sumAndPeriodizedInfoMismatch': 'Kuude väärtused ei anna kokku summat: kuude jaotus jäetakse välja.',
  'records.importError.emptySum': 'Summa puudub: summaks võetakse 0,00.',
  'records.importError.validation.required': 'Kohustuslik klassifikaator on täitmata.',
  'records.importError.referenceItemNotFound': 'Klassifikaatori väärtust ei leitud.',
  'records.importError.optionalReferenceItemNotFound': 'Valikulise klassifikaatori väärtust ei leitud: väärtus jäetakse välja.',
  'records.importError.codeTypeError': 'Kood ei vasta klassifikaatori koodi tüübile.',
  'records.importError.uniqueCode': 'Lahtris on mitu koodi: kirjel saab selle klassifikaatori väärtusi olla üks.',
  'records.importError.referenceItemUnselectable': 'Seda klassifikaatori väärtust ei saa valida.',
  'records.importError.doesNotMatchSubBudget': 'Klassifikaatori väärtus ei vasta alameelarvele.',
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
  'error.IMPORT_BODY_TOO_LARGE': 'The import data is too large: at most 20 MB compressed and 200 MB unpacked.',
  'error.IMPORT_BODY_INVALID': 'The import data is not gzip-compressed JSON.',
  'error.API_USAGE_NOT_ALLOWED': 'The organisation does not allow API usage.',
  'error.IMPORT_BUDGET_TYPE_INVALID': 'Records cannot be imported into this budget.',
  'validation.amount': 'Enter a number (up to 15 digits before and 6 after the decimal point).',
  'validation.requiredField': 'A required classifier needs a value.',
  // Import row errors (spec 3 section 5; shared/src/records/import-validation.ts): 'records.importError.' + message key.
  'records.importError.emptyName': 'The name is missing.',
  'records.importError.emptyNameMaster': 'The name is missing: the master classifier value’s name is used.',
  'records.importError.validation.max': 'The name is longer than 256 characters.',
  'records.importError.periodValueNotNumeric': 'A monthly value is not a number.',
  'records.importError.periodOutsideDocument': 'A monthly value lies outside the document period.',
  'records.importError.sumNotNumeric': 'The amount is not a number.',
  'records.importError.sumAndPeriodizedInfoMissing': 'The amount and the monthly values are missing: the amount becomes 0.00.',
  'records.importError.sumAndPeriodizedInfoMismatch': 'The monthly values do not add up to the amount: the monthly split is dropped.',
  'records.importError.emptySum': 'The amount is missing: it becomes 0.00.',
  'records.importError.validation.required': 'A required classifier has no value.',
  'records.importError.referenceItemNotFound': 'Classifier value not found.',
  'records.importError.optionalReferenceItemNotFound': 'Optional classifier value not found: the value is left out.',
  'records.importError.codeTypeError': 'The code does not match the classifier’s code type.',
  'records.importError.uniqueCode': 'The cell holds several codes: a record takes one value of this classifier.',
  'records.importError.referenceItemUnselectable': 'This classifier value cannot be selected.',
  'records.importError.doesNotMatchSubBudget': 'The classifier value does not match the sub-budget.',
};

// The records screen's own keys (R4) live in screen-messages.ts; the import modal's and the export's (R5) in import/messages.ts.
export const recordsMessages = {
  et: { ...et, ...recordsScreenMessages.et, ...recordImportExportMessages.et },
  en: { ...en, ...recordsScreenMessages.en, ...recordImportExportMessages.en },
};
